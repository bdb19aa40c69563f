import { useState } from 'react';
import type { Ga4mpValidateRequest } from '../../../../lib/api/ga4mp.js';
import type { ValidationMessage } from '../../../../lib/tools/ga4mp/types.js';
import { ApiError } from '../../../app/api-client.js';
import { useToast } from '../../../components/Toaster.js';
import { useSendPayload, useValidateOnServer } from '../api.js';
import { plural } from '../format.js';
import type { useWorkbench } from './useWorkbench.js';

type Workbench = ReturnType<typeof useWorkbench>;

/** The last answer of "Validate on server", compared with the live check. */
export interface ServerCheck {
  messages: ValidationMessage[];
  /** The payload changed since it was sent for validation. */
  outdated: boolean;
  /** The server found what the live check finds (duplicate keys aside: JSON.parse on the server drops them). */
  matches: boolean;
}

/** A send refused for validation messages: here before any request, or by the server (422). */
export interface Refusal {
  debug: boolean;
  count: number;
}

const VALIDATE_TOAST = { key: 'ga4mp-validate' };
const SEND_TOAST = { key: 'ga4mp-send' };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** "Validate on server" and the two sends, with what they answered; asking for either checks every field. */
export function useSending(workbench: Workbench) {
  const toast = useToast();
  const validate = useValidateOnServer();
  const send = useSendPayload();
  const [localRefusal, setLocalRefusal] = useState<Refusal | null>(null);
  const payload: Ga4mpValidateRequest = { query: workbench.query, body: workbench.draft.body };

  const validateOnServer = () => {
    workbench.revealAll();
    validate.mutate(payload, {
      onSuccess: (answer) => {
        const count = answer.validationMessages.length;
        if (count === 0) toast('Server validation: the payload is valid', 'success', VALIDATE_TOAST);
        else toast(`Server validation: ${plural(count, 'message')}`, 'error', VALIDATE_TOAST);
      },
      onError: (error) => toast(error.message, 'error', VALIDATE_TOAST),
    });
  };

  /** Refused here first (no request at all); the server refuses the same way if asked directly. */
  const startSend = (debug: boolean, force: boolean) => {
    workbench.revealAll();
    if (!force && workbench.messages.length > 0) {
      send.reset();
      setLocalRefusal({ debug, count: workbench.messages.length });
      toast('Not sent: fix the validation messages or send anyway', 'error', SEND_TOAST);
      return;
    }
    setLocalRefusal(null);
    send.mutate(
      { ...payload, debug, region: workbench.draft.region, force: force || undefined },
      {
        onSuccess: (answer) => {
          const gaMessages = (answer.response as { validationMessages?: unknown[] } | null)?.validationMessages;
          if (!answer.ok) toast(`GA4 answered ${answer.status}`, 'error', SEND_TOAST);
          else if (debug && gaMessages?.length)
            toast(`GA4's validation server returned ${plural(gaMessages.length, 'message')}`, 'error', SEND_TOAST);
          else toast(debug ? "Sent to GA4's validation server: valid" : `Sent to GA4 (${answer.status})`, 'success', SEND_TOAST);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422)
            toast('Not sent: fix the validation messages or send anyway', 'error', SEND_TOAST);
          else toast(error.message, 'error', SEND_TOAST);
        },
      },
    );
  };

  const serverRefused = send.error instanceof ApiError && send.error.status === 422;
  const refused: Refusal | null =
    localRefusal ??
    (serverRefused && send.variables
      ? { debug: send.variables.debug, count: Object.values((send.error as ApiError).fields).flat().length }
      : null);
  const sendError =
    send.error && !serverRefused ? { message: send.error.message, status: send.error instanceof ApiError ? send.error.status : 0 } : null;

  const localForServer = workbench.messages.filter((message) => message.validationCode !== 'NAME_DUPLICATED');
  const server: ServerCheck | null =
    validate.data && validate.variables
      ? {
          messages: validate.data.validationMessages,
          outdated: !same(validate.variables, payload),
          matches: same(validate.data.validationMessages, localForServer),
        }
      : null;

  return {
    server,
    validating: validate.isPending,
    validateOnServer,
    startSend,
    sending: send.isPending ? (send.variables?.debug ? 'debug' : 'real') : null,
    result: send.data ?? null,
    sendError,
    refused,
    /** Forgets the last answers (a payload from the history replaces the one they were about). */
    reset: () => {
      validate.reset();
      send.reset();
      setLocalRefusal(null);
    },
  } as const;
}
