/** The chat's voice notes use the shared recorder (lib/), which the quick messages screen records with too. */
export { formatElapsed, useAudioRecorder, type RecorderFailure } from '../../../lib/audio-recorder';
