import { Inject, Injectable, UnprocessableEntityException } from '@nestjs/common';
import type { Ga4mpSendRefusedBody, Ga4mpSendRequest, Ga4mpSendResponse, Ga4mpValidateResponse } from '../../../lib/api/ga4mp.js';
import { buildGa4mpUrl, redactGa4mpUrl } from '../../../lib/tools/ga4mp/endpoint.js';
import { validateGa4mpRequest } from '../../../lib/tools/ga4mp/validate.js';
import { fieldError } from '../../common/validation.js';
import { ToolUsageService } from '../usage/tool-usage.service.js';
import { Ga4mpHistoryService } from './ga4mp-history.service.js';
import { Ga4mpErrorCode, Ga4mpException } from './ga4mp.exception.js';
import { GA4MP_TRANSPORT, type Ga4mpTransport, Ga4mpTransportError } from './ga4mp.transport.js';

function parseAnswer(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

@Injectable()
export class Ga4mpService {
  constructor(
    private readonly history: Ga4mpHistoryService,
    private readonly usage: ToolUsageService,
    @Inject(GA4MP_TRANSPORT) private readonly transport: Ga4mpTransport,
  ) {}

  async validate(query: Record<string, unknown>, body: Record<string, unknown>): Promise<Ga4mpValidateResponse> {
    const result = validateGa4mpRequest(query, body);
    await this.usage.record('ga4mp', 'validate');
    return result;
  }

  /**
   * Validates locally, then POSTs to GA4 through the server (the browser cannot: GA4 sends no CORS
   * headers for /debug/mp/collect answers, and the page's CSP allows only this origin). A payload with
   * validation messages is refused with them unless `force` is set: sending knowingly broken data to
   * the real endpoint is a deliberate act, and GA4 itself would silently drop it.
   */
  async send(userId: string, input: Ga4mpSendRequest): Promise<Ga4mpSendResponse> {
    const { validationMessages } = validateGa4mpRequest(input.query, input.body);
    if (validationMessages.length > 0 && !input.force) {
      const fields: Record<string, string[]> = {};
      for (const message of validationMessages) (fields[message.fieldPath] ??= []).push(message.description);
      throw new UnprocessableEntityException({
        statusCode: 422,
        error: 'Unprocessable Entity',
        message: `The payload has ${validationMessages.length} validation ${validationMessages.length === 1 ? 'problem' : 'problems'}: fix ${validationMessages.length === 1 ? 'it' : 'them'} or send anyway.`,
        fields,
        validationMessages,
      } satisfies Ga4mpSendRefusedBody);
    }
    const query = input.query;
    const streamId = typeof query.measurement_id === 'string' ? query.measurement_id : query.firebase_app_id;
    if (typeof streamId !== 'string' || streamId === '') {
      throw fieldError('query.measurement_id', 'A measurement_id (web) or firebase_app_id (app) is needed to build the GA4 URL');
    }
    if (typeof query.api_secret !== 'string' || query.api_secret === '') {
      throw fieldError('query.api_secret', 'An api_secret is needed to send to GA4');
    }
    const url = buildGa4mpUrl(
      typeof query.measurement_id === 'string'
        ? { measurement_id: streamId, api_secret: query.api_secret }
        : { firebase_app_id: streamId, api_secret: query.api_secret },
      { region: input.region, debug: input.debug, origins: this.transport.origins },
    );
    const endpoint = redactGa4mpUrl(url);
    await this.usage.record('ga4mp', 'send');

    const base = { query, body: input.body, debug: input.debug, region: input.region, localMessages: validationMessages };
    try {
      const answer = await this.transport.post(url, JSON.stringify(input.body));
      const response = parseAnswer(answer.text);
      const ok = answer.status >= 200 && answer.status < 300;
      const entry = await this.history.record(userId, {
        ...base,
        status: answer.status,
        ok,
        durationMs: answer.durationMs,
        response,
        error: null,
      });
      return { status: answer.status, ok, durationMs: answer.durationMs, endpoint, response, historyId: entry.id };
    } catch (error) {
      if (!(error instanceof Ga4mpTransportError)) throw error;
      const host = new URL(url).host;
      const failure = error.failure;
      const message =
        failure.kind === 'timeout'
          ? `GA4 did not answer within ${Math.round(this.transport.timeoutMs / 100) / 10} s (${host}). It may or may not have received the payload; try again in a moment.`
          : `Could not reach GA4 at ${host} (${failure.reason}). Check the server's network access and try again.`;
      await this.history.record(userId, {
        ...base,
        status: null,
        ok: false,
        durationMs: failure.durationMs,
        response: null,
        error: message,
      });
      throw new Ga4mpException(failure.kind === 'timeout' ? Ga4mpErrorCode.Timeout : Ga4mpErrorCode.Unreachable, message);
    }
  }
}
