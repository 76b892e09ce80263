import { useTranslation } from 'react-i18next';

/** Keyboard users jump past the header. Handled in JS: in a hash router, `#id` would be read as a route. */
export function SkipLink({ targetId }: { targetId: string }) {
  const { t } = useTranslation();
  return (
    <a
      href={`#${targetId}`}
      className="skip-link"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(targetId)?.focus();
      }}
    >
      {t('common.skipToContent')}
    </a>
  );
}
