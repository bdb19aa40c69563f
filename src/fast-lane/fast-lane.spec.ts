import {
  Body,
  Controller,
  Get,
  Header,
  Headers,
  HttpCode,
  Ip,
  Param,
  Post,
  Query,
  RawBody,
  type Type,
  UseInterceptors,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { of } from 'rxjs';
import { Public } from '../auth/decorators/public.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { SkipCsrf } from '../auth/decorators/skip-csrf.decorator.js';
import { RateLimit } from '../rate-limit/rate-limit.decorator.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { FastLane, fastLaneRoutes } from './fast-lane.js';

class PingDto {
  name?: string;
}

@Controller('api/v1/lane')
class AllowedController {
  @FastLane()
  @Public()
  @SkipCsrf()
  @RateLimit('lane', { scope: 'ip', limit: 10, windowSeconds: 60, buffered: true })
  @Post('ping')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  ping(@Body() body: PingDto, @Ip() ip: string) {
    return { name: body.name, ip };
  }

  @FastLane()
  @Public()
  @Get('status')
  status() {
    return { ok: true };
  }

  @Public()
  @Get('not-in-the-lane')
  other() {
    return {};
  }
}

async function routesOf(controller: Type<unknown>) {
  const moduleRef = await Test.createTestingModule({ controllers: [controller] })
    .useMocker(() => ({}))
    .overrideGuard(RateLimitGuard)
    .useValue({})
    .compile();
  return fastLaneRoutes(moduleRef);
}

describe('fastLaneRoutes', () => {
  it('describes each marked handler as Nest would answer it: path, status, headers, rate limit, parameters', async () => {
    const routes = await routesOf(AllowedController);
    expect(routes.map(({ name, method, path, status, headers, args }) => ({ name, method, path, status, headers, args }))).toEqual([
      {
        name: 'POST /api/v1/lane/ping (AllowedController.ping)',
        method: 'POST',
        path: '/api/v1/lane/ping',
        status: 200,
        headers: [['Cache-Control', 'no-store']],
        args: [{ kind: 'body', metatype: PingDto }, { kind: 'ip' }],
      },
      {
        name: 'GET /api/v1/lane/status (AllowedController.status)',
        method: 'GET',
        path: '/api/v1/lane/status',
        status: 200,
        headers: [],
        args: [],
      },
    ]);
    expect(routes[0].rateLimit).toEqual({ bucket: 'lane', rules: [{ scope: 'ip', limit: 10, windowSeconds: 60, buffered: true }] });
    expect(await routes[0].call([{ name: 'a' }, '127.0.0.1'])).toEqual({ name: 'a', ip: '127.0.0.1' });
  });

  it('describes a handler of the raw body and a named header, with the raw body’s own limit', async () => {
    @Controller('api/v1/lane')
    class RawController {
      @FastLane({ rawBodyLimitBytes: 4096 })
      @Public()
      @SkipCsrf()
      @Post('raw')
      @HttpCode(200)
      raw(@RawBody() body: Buffer, @Headers('X-Signature') signature: string) {
        return { length: body.length, signature };
      }
    }
    const [route] = await routesOf(RawController);
    expect(route.args).toEqual([{ kind: 'rawBody' }, { kind: 'header', name: 'x-signature' }]);
    expect(route.rawBodyLimitBytes).toBe(4096);
    expect(await route.call([Buffer.from('abc'), 's1'])).toEqual({ length: 3, signature: 's1' });
    const [parsed] = await routesOf(AllowedController);
    expect(parsed.rawBodyLimitBytes).toBeNull();
  });

  // Each controller breaks one rule; the start-up refuses it with the reason.
  const refused: Array<[string, Type<unknown>, RegExp]> = [
    [
      'a handler that is not @Public()',
      (() => {
        @Controller('api/v1/lane')
        class C {
          @FastLane()
          @Get('x')
          x() {}
        }
        return C;
      })(),
      /must be @Public\(\)/,
    ],
    [
      'a write without @SkipCsrf()',
      (() => {
        @Controller('api/v1/lane')
        class C {
          @FastLane()
          @Public()
          @Post('x')
          x() {}
        }
        return C;
      })(),
      /must be @SkipCsrf\(\)/,
    ],
    [
      'a handler with roles',
      (() => {
        @Controller('api/v1/lane')
        class C {
          @FastLane()
          @Public()
          @Roles('admin')
          @Get('x')
          x() {}
        }
        return C;
      })(),
      /has roles/,
    ],
    [
      'a query parameter',
      (() => {
        @Controller('api/v1/lane')
        class C {
          @FastLane()
          @Public()
          @Get('x')
          x(@Query('q') q: string) {
            return q;
          }
        }
        return C;
      })(),
      /neither @Body\(\), @RawBody\(\), @Ip\(\) nor @Headers\('name'\)/,
    ],
    [
      'a path parameter',
      (() => {
        @Controller('api/v1/lane')
        class C {
          @FastLane()
          @Public()
          @Get(':id')
          x(@Param('id') id: string) {
            return id;
          }
        }
        return C;
      })(),
      /path with parameters/,
    ],
    [
      'a page path',
      (() => {
        @Controller('pricing')
        class C {
          @FastLane()
          @Public()
          @Get()
          x() {}
        }
        return C;
      })(),
      /never a page/,
    ],
    [
      'an interceptor',
      (() => {
        @Controller('api/v1/lane')
        class C {
          @FastLane()
          @Public()
          @UseInterceptors({ intercept: () => of(null) })
          @Get('x')
          x() {}
        }
        return C;
      })(),
      /interceptors/,
    ],
    [
      'a per-user rate limit',
      (() => {
        @Controller('api/v1/lane')
        class C {
          @FastLane()
          @Public()
          @RateLimit('lane', { scope: 'user', limit: 1, windowSeconds: 1 })
          @Get('x')
          x() {}
        }
        return C;
      })(),
      /per-user rate limit/,
    ],
    [
      'every header at once',
      (() => {
        @Controller('api/v1/lane')
        class C {
          @FastLane()
          @Public()
          @Get('x')
          x(@Headers() headers: Record<string, string>) {
            return headers;
          }
        }
        return C;
      })(),
      /name the one it reads/,
    ],
    [
      'a raw body without its limit',
      (() => {
        @Controller('api/v1/lane')
        class C {
          @FastLane()
          @Public()
          @SkipCsrf()
          @Post('x')
          x(@RawBody() body: Buffer) {
            return body.length;
          }
        }
        return C;
      })(),
      /says how much it reads/,
    ],
    [
      'a limit for a raw body it does not take',
      (() => {
        @Controller('api/v1/lane')
        class C {
          @FastLane({ rawBodyLimitBytes: 1024 })
          @Public()
          @SkipCsrf()
          @Post('x')
          x(@Body() body: PingDto) {
            return body;
          }
        }
        return C;
      })(),
      /says how much it reads/,
    ],
  ];

  it.each(refused)('refuses %s at start-up, saying why', async (_name, controller, reason) => {
    await expect(routesOf(controller)).rejects.toThrow(reason);
  });
});
