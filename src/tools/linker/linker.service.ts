import { Injectable } from '@nestjs/common';
import type { LinkerDecodeResponse, LinkerEncodeResponse } from '../../../lib/api/linker.js';
import { parseTime } from '../../../lib/tools/linker/inputs.js';
import { decode, encode } from '../../../lib/tools/linker/linker.js';
import { fieldError } from '../../common/validation.js';
import { ToolUsageService } from '../usage/tool-usage.service.js';
import type { DecodeLinkerDto, EncodeLinkerDto } from './dto/linker.dto.js';

/** The `_gl` codec lives in lib/ (the page runs the same code); this counts the runs. */
@Injectable()
export class LinkerService {
  constructor(private readonly usage: ToolUsageService) {}

  async decode(input: DecodeLinkerDto, now = Date.now()): Promise<LinkerDecodeResponse> {
    const time = input.time === undefined ? now : parseTime(input.time)!;
    const result = decode(input.input, input.browser ? { browser: input.browser, time } : undefined);
    await this.usage.record('linker', 'decode');
    return result;
  }

  async encode(input: EncodeLinkerDto, now = Date.now()): Promise<LinkerEncodeResponse> {
    const result = encode({
      cookies: input.cookies,
      browser: input.browser,
      time: input.time === undefined ? now : parseTime(input.time)!,
      url: input.url,
      placement: input.placement,
      normalize: input.normalize,
    });
    // The DTO already refused what the codec refuses, except a value with broken Unicode.
    if (!result.ok) throw fieldError('cookies', result.error);
    await this.usage.record('linker', 'encode');
    return { value: result.value, url: result.url ?? null, fingerprint: result.fingerprint, entries: result.entries };
  }
}
