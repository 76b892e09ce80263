/**
 * The quick messages screen's writes (client-contract §8 `/fastreply`): multipart `key, message, voice` and the file
 * as `medias`; `removeMedia=true` removes the current file on an edit (without it, an edit keeps the file).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { quickMessageDtoSchema, type QuickMessageDto } from '@conversa/shared';
import { api } from '../../../lib/api';
import { quickMessagesKey } from '../../../lib/quick-messages';

export interface QuickMessageDraft {
  key: string;
  message: string;
  /** A new file (an upload or a recording); null keeps the current one. */
  file: File | null;
  /** The new file is a recorded voice note (sent as ptt). */
  voice: boolean;
  removeMedia: boolean;
  isActive: boolean;
}

export function quickMessageForm(draft: QuickMessageDraft): FormData {
  const form = new FormData();
  form.append('key', draft.key);
  form.append('message', draft.message);
  form.append('isActive', String(draft.isActive));
  form.append('voice', draft.file && draft.voice ? 'enabled' : 'disabled');
  if (draft.file) form.append('medias', draft.file, draft.file.name);
  else if (draft.removeMedia) form.append('removeMedia', 'true');
  return form;
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: quickMessagesKey });
}

/** POST /fastreply/ or PUT /fastreply/{id}; errors are shown by the form. */
export function useSaveQuickMessage() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ id, draft }: { id?: number; draft: QuickMessageDraft }): Promise<QuickMessageDto> => {
      const body = quickMessageForm(draft);
      return quickMessageDtoSchema.parse(
        id === undefined ? await api.post('/fastreply/', body) : await api.put(`/fastreply/${id}`, body),
      );
    },
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** DELETE /fastreply/{id}. */
export function useDeleteQuickMessage() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: number) => api.delete<void>(`/fastreply/${id}`), onSuccess: invalidate });
}
