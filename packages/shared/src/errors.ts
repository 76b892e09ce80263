/**
 * The error catalogue: every code the server may answer with `{ "error": CODE }`, its HTTP status and its
 * pt-BR and en text. Codes of product-spec §8 keep their exact names; codes we added are marked `ours`.
 */
export interface ErrorDefinition {
  status: number;
  ptBR: string;
  en: string;
}

const def = (status: number, ptBR: string, en: string): ErrorDefinition => ({ status, ptBR, en });

export const errorCatalogue = {
  ERR_SESSION_EXPIRED: def(403, 'Sessão expirada, faça login novamente.', 'Session expired, please log in again.'),
  ERR_INVALID_CREDENTIALS: def(
    401,
    'Erro de autenticação. Usuário e/ou senha inválidos.',
    'Authentication error, invalid user and/or password.',
  ),
  ERR_LIMIT_MAX: def(
    429,
    'Foram realizadas muitas tentativas de login. Tente novamente em 1 minuto.',
    'Too many login attempts. Try again in 1 minute.',
  ),
  ERR_NO_PERMISSION: def(403, 'Você não tem permissão para acessar este recurso.', 'You have no permission.'),
  ERR_USER_CREATION_DISABLED: def(
    403,
    'Criação de usuário desabilitada pelo administrador.',
    'User creation disabled by the administrator.',
  ),
  ERR_TENANT_INACTIVE: def(403, 'Sua empresa está inativa', 'Your company is inactive.'),
  ERR_ASAAS_OVERDUE: def(402, 'Verifique a situação do seu plano.', 'Check the status of your plan.'),
  ERR_API_CONFIG_NOT_FOUND: def(404, 'Configuração de API não encontrada.', 'API configuration not found.'),
  ERR_NO_CONTACT_FOUND: def(404, 'Contato não encontrado.', 'Contact not found.'),
  ERR_DUPLICATED_CONTACT: def(
    409,
    'Já existe um contato com este número.',
    'A contact with this number already exists.',
  ),
  ERR_CONTACT_TICKETS_REGISTERED: def(
    409,
    'Não é possível excluir um contato com tickets.',
    'A contact with tickets cannot be deleted.',
  ),
  ERR_CREATING_MESSAGE: def(500, 'Erro ao criar mensagem no banco de dados.', 'Database error creating the message.'),
  ERR_CREATING_TICKET: def(500, 'Erro ao criar ticket no banco de dados.', 'Database error creating the ticket.'),
  ERR_NO_TICKET_FOUND: def(404, 'Ticket não encontrado.', 'Ticket not found.'),
  ERR_OTHER_OPEN_TICKET: def(
    409,
    'Já existe um ticket aberto/pendente para esse contato.',
    'An open or pending ticket already exists for this contact.',
  ),
  ERR_NO_STATUS_SELECTED: def(400, 'Nenhum status selecionado.', 'No status selected.'),
  ERR_AUTO_REPLY_RELATIONED_TICKET: def(
    409,
    'Não é possível excluir um fluxo utilizado em tickets.',
    'A flow used in tickets cannot be deleted.',
  ),
  ERR_NO_AUTO_REPLY_FOUND: def(404, 'Fluxo não encontrado.', 'Flow not found.'),
  ERR_NO_STEP_AUTO_REPLY_FOUND: def(404, 'Etapa do fluxo não encontrada.', 'Flow step not found.'),
  ERR_AUTO_REPLY_EXISTS: def(
    409,
    'Já existe uma resposta automática para esta ação.',
    'An auto-reply already exists for this action.',
  ),
  ERR_CHAT_FLOW_INVALID: def(
    400,
    'O fluxo tem problemas: corrija-os antes de salvar.',
    'The flow has problems: fix them before saving.',
  ),
  ERR_CAMPAIGN_CONTACTS_NOT_EXISTS_OR_NOT_ACESSIBLE: def(
    404,
    'Contatos da campanha inexistentes ou inacessíveis.',
    'Campaign contacts missing or inaccessible.',
  ),
  ERROR_CAMPAIGN_NOT_EXISTS: def(404, 'Campanha não existe.', 'Campaign does not exist.'),
  ERR_NO_CAMPAIGN_FOUND: def(404, 'Campanha não encontrada.', 'Campaign not found.'),
  ERR_NO_CAMPAIGN_CONTACTS_NOT_FOUND: def(404, 'Contatos da campanha não encontrados.', 'Campaign contacts not found.'),
  ERR_CAMPAIGN_CONTACTS_NOT_EXISTS: def(404, 'Contatos da campanha não existem.', 'Campaign contacts do not exist.'),
  ERR_CAMPAIGN_CONTACTS: def(400, 'Erro nos contatos da campanha.', 'Campaign contacts error.'),
  ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING: def(
    409,
    'Somente campanhas pendentes ou canceladas podem ser alteradas.',
    'Only pending or canceled campaigns can be updated.',
  ),
  ERROR_CAMPAIGN_DATE_NOT_VALID: def(400, 'A data deve ser posterior a agora.', 'The date must be after now.'),
  ERR_CONTACT_BLOCKED: def(
    400,
    'O contato está bloqueado: não recebe mensagens.',
    'The contact is blocked: it receives no messages.',
  ),
  ERR_CONTACT_OPTED_OUT: def(
    400,
    'O contato pediu para não receber campanhas.',
    'The contact asked not to receive campaigns.',
  ),
  ERR_NO_FAST_REPLY_FOUND: def(404, 'Mensagem rápida não encontrada.', 'Quick message not found.'),
  ERR_FAST_REPLY_EXISTS: def(409, 'Mensagem rápida já existe.', 'Quick message already exists.'),
  ERR_NO_QUEUE_FOUND: def(404, 'Fila não encontrada.', 'Queue not found.'),
  ERR_QUEUE_TICKET_EXISTS: def(
    409,
    'Não é possível excluir uma fila com tickets.',
    'A queue with tickets cannot be deleted.',
  ),
  ERR_NO_TAG_FOUND: def(404, 'Etiqueta não encontrada.', 'Tag not found.'),
  ERR_TAG_CONTACTS_EXISTS: def(409, 'A etiqueta ainda possui contatos.', 'The tag still has contacts.'),
  ERR_NO_SETTING_FOUND: def(404, 'Nenhuma configuração encontrada com este ID.', 'No setting found with this ID.'),
  ERR_NO_TENANT_FOUND: def(404, 'Nenhuma empresa encontrada com este ID.', 'No company found with this ID.'),
  ERR_NO_USER_FOUND: def(404, 'Nenhum usuário encontrado com este ID.', 'No user found with this ID.'),
  ERR_NO_WAPP_FOUND: def(404, 'Nenhuma conexão encontrada com este ID.', 'No connection found with this ID.'),
  ERR_NO_DEF_WAPP_FOUND: def(
    404,
    'Nenhuma conexão padrão definida. Verifique a página de conexões.',
    'No default connection set. Check the connections page.',
  ),
  ERR_WAPP_NOT_INITIALIZED: def(409, 'Sessão não inicializada.', 'Session not initialized.'),
  ERR_WAPP_INITIALIZED: def(
    409,
    'Não conectado, reiniciando a conexão. Tente novamente em alguns segundos.',
    'Not connected, restarting the connection. Retry in a few seconds.',
  ),
  ERR_WAPP_CHECK_CONTACT: def(400, 'Não foi possível verificar o contato.', 'Could not verify the contact.'),
  ERR_WAPP_INVALID_CONTACT: def(400, 'Este não é um número de WhatsApp válido.', 'Not a valid WhatsApp number.'),
  ERR_CONTACTS_NOT_EXISTS_WHATSAPP: def(
    400,
    'Os contatos não existem no WhatsApp.',
    'Contacts do not exist on WhatsApp.',
  ),
  ERR_WAPP_DOWNLOAD_MEDIA: def(502, 'Não foi possível baixar a mídia.', 'Could not download media.'),
  ERR_SENDING_WAPP_MSG: def(502, 'Erro ao enviar mensagem.', 'Error sending message.'),
  ERR_DELETE_WAPP_MSG: def(
    409,
    'Não foi possível apagar a mensagem (mensagens antigas não podem ser apagadas).',
    'Could not delete the message (old messages cannot be deleted).',
  ),
  ERR_FETCH_WAPP_MSG: def(
    502,
    'Não foi possível buscar a mensagem, talvez seja muito antiga.',
    'Could not fetch the message, maybe it is too old.',
  ),
  ERROR_NO_PERMISSION_API_ADMIN: def(403, 'Instalação não AUTORIZADA', 'Installation NOT AUTHORISED'),
  // official channels (issue 15): the spec's 'Ops! Dados WABA incorretos.' and the codes its screens imply
  ERR_WABA_DATA_INVALID: def(400, 'Ops! Dados WABA incorretos.', 'Oops! Incorrect WABA data.'),
  ERR_WINDOW_CLOSED: def(
    409,
    'A janela de 24 horas de atendimento está fechada: envie um modelo (template) para retomar a conversa.',
    'The 24-hour customer-service window is closed: send a template to resume the conversation.',
  ),
  ERR_NO_TEMPLATE_FOUND: def(404, 'Modelo não encontrado ou não aprovado.', 'Template not found or not approved.'),
  ERR_META_TOKEN_MISSING: def(
    400,
    'Token da Meta não configurado. Verifique as configurações da Meta.',
    'Meta token not configured. Check the Meta settings.',
  ),
  ERR_HUB_TOKEN_MISSING: def(
    400,
    'Token do Hub não configurado. Verifique as configurações do Hub.',
    'Hub token not configured. Check the Hub settings.',
  ),
  ERR_HUB_DATA_INVALID: def(400, 'Ops! Dados do Hub incorretos.', 'Oops! Incorrect Hub data.'),
  // ours: codes the spec's screens imply but its catalogue does not name
  ERR_USER_LIMIT_USER_CREATION: def(403, 'Limite de usuários atingido.', 'User limit reached.'),
  ERR_CONNECTION_LIMIT: def(403, 'Limite de conexões atingidas.', 'Connection limit reached.'),
  ERR_INVALID_TOKEN: def(401, 'Token inválido, redirecionando para o login', 'Invalid token, redirecting to login'),
  ERR_CAPTCHA_INVALID: def(
    400,
    'Por favor, valide o CAPTCHA antes de continuar.',
    'Please complete the CAPTCHA before continuing.',
  ),
  ERR_VALIDATION: def(400, 'Ops! Verifique os erros...', 'Oops! Check the errors...'),
  ERR_EMAIL_ALREADY_EXISTS: def(
    409,
    'Já existe um usuário com este e-mail.',
    'A user with this e-mail already exists.',
  ),
  ERR_INVALID_CPF_CNPJ: def(400, 'CPF ou CNPJ inválido.', 'Invalid CPF or CNPJ.'),
  ERR_CURRENT_PASSWORD_INVALID: def(400, 'Senha atual incorreta.', 'Current password is incorrect.'),
  ERR_SIGNUP_TOKEN_INVALID: def(
    400,
    'Link de confirmação de cadastro inválido ou expirado.',
    'The sign-up confirmation link is invalid or has expired.',
  ),
  ERR_WEAK_PASSWORD: def(
    400,
    'A senha deve ter ao menos 7 caracteres, com letras, números e um caractere especial.',
    'The password needs at least 7 characters with letters, numbers and a special character.',
  ),
  ERR_NO_PLAN_FOUND: def(404, 'Plano não encontrado.', 'Plan not found.'),
  ERR_INVALID_RESET_TOKEN: def(
    400,
    'Link de redefinição de senha inválido ou expirado.',
    'The password reset link is invalid or has expired.',
  ),
  ERR_SETTINGS_VISIBILITY_COMBINATION: def(
    400,
    'Tickets atribuídos a outros, tickets no chatbot e tickets sem usuário/fila não podem ser combinados.',
    'Tickets assigned to others, tickets in chatbot and tickets without user/queue cannot all be combined.',
  ),
  ERR_PROFILE_ESCALATION: def(
    403,
    'Você não pode alterar o seu próprio perfil.',
    'You cannot change your own profile.',
  ),
  ERR_TENANT_PROTECTED: def(
    403,
    'Não é possível desativar ou excluir a empresa 1.',
    'Company 1 cannot be deactivated or deleted.',
  ),
  ERR_TICKET_SAME_ASSIGNEE: def(
    409,
    'Ticket já pertence ao usuário selecionado.',
    'The ticket already belongs to the selected user.',
  ),
  ERR_TRANSFER_FAILED: def(409, 'Não foi possível transferir.', 'Could not transfer.'),
  ERR_TICKET_CLOSED: def(
    409,
    'O ticket está resolvido. Reabra-o para continuar.',
    'The ticket is resolved. Reopen it to go on.',
  ),
  ERR_TELEGRAM_TOKEN_REQUIRED: def(400, 'Informe o token do bot do Telegram.', 'Enter the Telegram bot token.'),
  ERR_CHANNEL_TYPE_UNSUPPORTED: def(
    400,
    'Este tipo de conexão ainda não está disponível.',
    'This connection type is not available yet.',
  ),
  ERR_CHANNEL_PROVIDER: def(
    502,
    'O provedor da conexão recusou a operação.',
    'The connection provider refused the operation.',
  ),
  ERR_WEBHOOK_UNAUTHORIZED: def(401, 'Assinatura do webhook inválida.', 'Invalid webhook signature.'),
  // ours (issue 22): a provider id (number, page, account, bot, instance) is held by one live channel at a time; the
  // catalogue's codes speak of a session's state, none of an id another connection holds
  ERR_CHANNEL_IDENTITY_TAKEN: def(
    409,
    'Este número, página ou conta já está conectado em outra conexão.',
    'This number, page or account is already connected on another connection.',
  ),
  ERR_MESSAGE_NOT_EDITABLE: def(409, 'Esta mensagem não pode ser editada.', 'This message cannot be edited.'),
  ERR_MEDIA_EXPIRED: def(403, 'Link de mídia expirado.', 'The media link has expired.'),
  ERR_MEDIA_QUOTA_EXCEEDED: def(
    413,
    'Limite de armazenamento de mídia da empresa atingido.',
    "The company's media storage quota is full.",
  ),
  ERR_NOT_FOUND: def(404, 'Recurso não encontrado.', 'Resource not found.'),
  ERR_PAYLOAD_TOO_LARGE: def(
    413,
    'Arquivo rejeitado devido ao tamanho ou tipo incompatível.',
    'File rejected because of its size or type.',
  ),
  ERR_RATE_LIMIT: def(
    429,
    'Muitas requisições. Tente novamente em instantes.',
    'Too many requests. Try again shortly.',
  ),
  ERR_SERVICE_UNAVAILABLE: def(
    503,
    'Serviço indisponível. Tente novamente em instantes.',
    'Service unavailable. Try again shortly.',
  ),
  // ours: the daily tools (issue 14)
  ERR_TAG_EXISTS: def(409, 'Já existe uma etiqueta com este nome.', 'A tag with this name already exists.'),
  ERR_QUEUE_EXISTS: def(409, 'Já existe uma fila com este nome.', 'A queue with this name already exists.'),
  ERR_NO_TEAM_FOUND: def(404, 'Equipe não encontrada.', 'Team not found.'),
  ERR_TEAM_EXISTS: def(409, 'Já existe uma equipe com este nome.', 'A team with this name already exists.'),
  ERR_NO_LANE_FOUND: def(404, 'Coluna do kanban não encontrada.', 'Kanban lane not found.'),
  ERR_NO_REASON_FOUND: def(404, 'Motivo não encontrado.', 'Reason not found.'),
  ERR_REASON_EXISTS: def(409, 'Já existe um motivo com este nome.', 'A reason with this name already exists.'),
  ERR_REASON_REQUIRED: def(
    400,
    'Escolha o motivo do atendimento para resolver.',
    "Choose the ticket's reason to resolve it.",
  ),
  ERR_NO_NOTE_FOUND: def(404, 'Nota não encontrada.', 'Note not found.'),
  ERR_NO_PROTOCOL_FOUND: def(404, 'Protocolo não encontrado.', 'Protocol not found.'),
  ERR_NO_EVALUATION_FOUND: def(404, 'Avaliação não encontrada.', 'Rating not found.'),
  ERR_EVALUATION_NOT_AVAILABLE: def(
    409,
    'Este atendimento não pode receber avaliação (grupo ou canal sem avaliação).',
    'This ticket cannot be rated (a group, or its channel does not send ratings).',
  ),
  ERR_NO_FAREWELL_FOUND: def(404, 'Mensagem de fechamento não encontrada.', 'Closing message not found.'),
  ERR_NO_SCHEDULE_FOUND: def(404, 'Agendamento não encontrado.', 'Scheduled message not found.'),
  ERR_SCHEDULE_NOT_PENDING: def(
    409,
    'Este agendamento já foi enviado ou cancelado.',
    'This scheduled message was already sent or canceled.',
  ),
  ERR_SCHEDULE_DATE_NOT_VALID: def(
    400,
    'A data do agendamento deve ser posterior a agora.',
    'The scheduled date must be after now.',
  ),
  ERR_NO_NOTIFICATION_FOUND: def(404, 'Notificação não encontrada.', 'Notification not found.'),
  // ours (issue 23): a ticket is opened only on a channel where the contact has an id (a phone-only contact has no
  // Telegram chat id: its messages could never be sent)
  ERR_CONTACT_NO_CHANNEL_ID: def(
    400,
    'Este contato não tem identificação neste canal (por exemplo, um contato só com telefone não pode ser atendido pelo Telegram).',
    'This contact has no id on this channel (for example, a contact with only a phone number cannot be reached on Telegram).',
  ),
  ERR_INTERNAL: def(500, 'Ocorreu um erro não identificado.', 'An unidentified error occurred.'),
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorCatalogue, value);
}

/** The body every error leaves the server with. `field` names the offending input on validation failures. */
export interface ErrorBody {
  error: ErrorCode;
  field?: string;
  message?: string;
}
