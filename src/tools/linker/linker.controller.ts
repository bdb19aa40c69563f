import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import type { LinkerDecodeResponse, LinkerEncodeResponse } from '../../../lib/api/linker.js';
import { SignedIn } from '../../auth/decorators/roles.decorator.js';
import { RateLimit } from '../../rate-limit/rate-limit.decorator.js';
import { DecodeLinkerDto, EncodeLinkerDto } from './dto/linker.dto.js';
import { LinkerService } from './linker.service.js';

/**
 * Decodes and encodes per user per hour, both together. The page runs the codec itself and sends each
 * run it starts (a button press, not a keystroke) here too, so this is many runs of real work.
 */
export const LINKER_RUNS_PER_HOUR = 300;
const LINKER_RATE_LIMIT = { scope: 'user', limit: LINKER_RUNS_PER_HOUR, windowSeconds: 3600 } as const;

@Controller('api/tools/linker')
export class LinkerController {
  constructor(private readonly linker: LinkerService) {}

  @SignedIn()
  @RateLimit('linker', LINKER_RATE_LIMIT)
  @Post('decode')
  @HttpCode(200)
  decode(@Body() body: DecodeLinkerDto): Promise<LinkerDecodeResponse> {
    return this.linker.decode(body);
  }

  @SignedIn()
  @RateLimit('linker', LINKER_RATE_LIMIT)
  @Post('encode')
  @HttpCode(200)
  encode(@Body() body: EncodeLinkerDto): Promise<LinkerEncodeResponse> {
    return this.linker.encode(body);
  }
}
