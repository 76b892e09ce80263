/** Toasts (product-spec §8): Mantine notifications at the top; errors in the warning colour. */
import { notifications } from '@mantine/notifications';

export function notifySuccess(message: string, title?: string): void {
  notifications.show({ message, title, color: 'teal', autoClose: 4000 });
}

export function notifyWarning(message: string, title?: string): void {
  notifications.show({ message, title, color: 'yellow', autoClose: 6000 });
}

export const notifyError = notifyWarning;

export function notifyInfo(message: string): void {
  notifications.show({ message, color: 'blue', autoClose: 4000 });
}
