/** Unread counts past this show as "99+" (a badge fits three characters). */
export const UNREAD_BADGE_MAX = 99;

/** An unread badge's text: the count up to 99, then "99+" (the badge's accessible name keeps the exact count). */
export function formatUnreadCount(count: number): string {
  return count > UNREAD_BADGE_MAX ? `${UNREAD_BADGE_MAX}+` : String(count);
}
