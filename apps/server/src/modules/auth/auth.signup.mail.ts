/** The sign-up e-mails, in Portuguese then English like the password reset's. */
export function signupConfirmationMail(link: string): { subject: string; text: string } {
  return {
    subject: 'Confirme o seu cadastro / Confirm your sign-up',
    text: [
      'Olá.',
      '',
      'Para criar a sua empresa, confirme o cadastro abrindo o link abaixo (válido por 24 horas):',
      link,
      '',
      'Se você não fez este cadastro, ignore este e-mail: nada foi criado.',
      '',
      '---',
      '',
      'Hello.',
      '',
      'To create your company, confirm your sign-up by opening the link below (valid for 24 hours):',
      link,
      '',
      'If you did not sign up, ignore this e-mail: nothing was created.',
    ].join('\n'),
  };
}

export function signupTakenMail(publicUrl: string): { subject: string; text: string } {
  const login = `${publicUrl}/#/login`;
  return {
    subject: 'Tentativa de cadastro com o seu e-mail / Sign-up attempt with your e-mail',
    text: [
      'Olá.',
      '',
      'Alguém tentou criar uma nova empresa com este e-mail, que já tem uma conta. Nada foi alterado.',
      `Se foi você, entre com a sua conta em ${login} ou use "Esqueci a senha" na mesma página para redefinir a senha.`,
      'Se não foi você, ignore este e-mail.',
      '',
      '---',
      '',
      'Hello.',
      '',
      'Someone tried to create a new company with this e-mail, which already has an account. Nothing was changed.',
      `If it was you, log in at ${login} or use "Forgot password" on that page to reset your password.`,
      'If it was not you, ignore this e-mail.',
    ].join('\n'),
  };
}
