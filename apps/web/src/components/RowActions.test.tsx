import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { confirmDelete } from './confirmDelete';
import { RowActions } from './RowActions';

describe('RowActions', () => {
  it('renders the extra actions, then edit and delete, with their labels and test ids', () => {
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    const onUp = vi.fn();
    renderWithProviders(
      <RowActions
        id={7}
        testIdPrefix="lane"
        extra={[{ label: 'Up', ariaLabel: 'Move up X', icon: null, onClick: onUp, testId: 'up', disabled: true }]}
        editLabel="Edit X"
        onEdit={onEdit}
        deleteLabel="Delete X"
        onDelete={onDelete}
      />,
    );
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('data-testid'))).toEqual([
      'lane-up-7',
      'lane-edit-7',
      'lane-delete-7',
    ]);
    expect(screen.getByTestId('lane-up-7')).toBeDisabled();
    expect(screen.getByTestId('lane-up-7')).toHaveAttribute('aria-label', 'Move up X');
    fireEvent.click(screen.getByRole('button', { name: 'Edit X' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete X' }));
    expect(onEdit).toHaveBeenCalledOnce();
    expect(onDelete).toHaveBeenCalledOnce();
    expect(onUp).not.toHaveBeenCalled();
  });

  it('disables delete when told', () => {
    renderWithProviders(
      <RowActions
        id={1}
        testIdPrefix="user"
        editLabel="e"
        onEdit={vi.fn()}
        deleteLabel="d"
        onDelete={vi.fn()}
        deleteDisabled
      />,
    );
    expect(screen.getByTestId('user-delete-1')).toBeDisabled();
    expect(screen.getByTestId('user-edit-1')).toBeEnabled();
  });
});

describe('confirmDelete', () => {
  it('asks with the message and runs onConfirm from confirm-delete only', async () => {
    const onConfirm = vi.fn();
    renderWithProviders(<div />);
    confirmDelete({ title: 'Delete it?', message: 'It goes for good.', onConfirm });
    expect(await screen.findByText('It goes for good.')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('confirm-cancel'));
    expect(onConfirm).not.toHaveBeenCalled();
    confirmDelete({ title: 'Delete it?', message: 'Again.', onConfirm, confirmLabel: 'Yes' });
    fireEvent.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledOnce());
  });
});
