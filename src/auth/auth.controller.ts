import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Ip,
  Post,
  Query,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  type CsrfTokenResponse,
  type MessageResponse,
  type RegisterResponse,
  registrationMessage,
  type SessionUser,
  verifyEmailLanding,
} from '../../lib/api/auth.js';
import { safeRedirectPath } from '../../lib/http/safe-redirect.js';
import { HOME_AFTER_SIGN_IN } from '../../lib/routes/route-middleware.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { applyAccountColorMode, clearAuthCookies, readCookie, rotateCsrfCookie, setAuthCookies, setCsrfCookie } from './auth-cookies.js';
import { AuthService } from './auth.service.js';
import { CSRF_COOKIE, CsrfService } from './csrf/csrf.service.js';
import { CurrentUser } from './decorators/current-user.decorator.js';
import { Public } from './decorators/public.decorator.js';
import { SignedIn } from './decorators/roles.decorator.js';
import { ForgotPasswordDto, ResetPasswordDto, VerifyEmailQueryDto } from './dto/account-recovery.dto.js';
import { LoginDto } from './dto/login.dto.js';
import { RegisterDto } from './dto/register.dto.js';
import { SecretsService } from './secrets.service.js';
import { REFRESH_COOKIE, SESSION_COOKIE } from './sessions.service.js';
import { readDeviceCookie, rememberDevice } from './device-cookie.js';
import { clearSignupCookie, readSignupCookie, setSignupCookie } from './signup-cookie.js';
import { RateLimit } from '../rate-limit/rate-limit.decorator.js';

/** Abuse limits (docs/errors.md, "Abuse limits"); counted in the database, shared by every instance. */
const FIFTEEN_MINUTES = 15 * 60;
const HOUR = 60 * 60;

@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly csrf: CsrfService,
    private readonly secrets: SecretsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Get('csrf')
  issueCsrfToken(@Req() request: Request, @Res({ passthrough: true }) response: Response): CsrfTokenResponse {
    const { token, newNonce } = this.csrf.issue(readCookie(request, CSRF_COOKIE));
    if (newNonce) setCsrfCookie(response, this.config, newNonce);
    response.setHeader('Cache-Control', 'no-store');
    return { token };
  }

  @Public()
  @RateLimit('register', { scope: 'ip', limit: 10, windowSeconds: HOUR })
  @Post('register')
  @HttpCode(202)
  async register(@Body() body: RegisterDto, @Ip() ip: string, @Res({ passthrough: true }) response: Response): Promise<RegisterResponse> {
    const { email, nonce } = await this.auth.register(body, ip);
    setSignupCookie(response, this.config, this.secrets.authSecret, { email, nonce, redirect: safeRedirectPath(body.redirect) });
    return { email, message: registrationMessage(email) };
  }

  @Public()
  // Per IP here; per account and client, with known devices let through, in SignInLimitsService.
  @RateLimit('login', { scope: 'ip', limit: 30, windowSeconds: FIFTEEN_MINUTES })
  @Post('login')
  @HttpCode(200)
  async login(@Body() body: LoginDto, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<SessionUser> {
    const device = readDeviceCookie(request, this.secrets.authSecret);
    const { tokens, accountKey } = await this.auth.login(body, request.header('user-agent'), { ip: request.ip ?? 'unknown', device });
    setAuthCookies(response, this.config, tokens);
    applyAccountColorMode(response, this.config, tokens.user);
    rotateCsrfCookie(response, this.config);
    rememberDevice(response, this.config, this.secrets.authSecret, device, accountKey);
    return tokens.user;
  }

  /** Exchanges the refresh cookie for a new access token (and a rotated refresh token). */
  @Public()
  @RateLimit('refresh', { scope: 'ip', limit: 120, windowSeconds: FIFTEEN_MINUTES })
  @Post('refresh')
  @HttpCode(200)
  async refresh(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<SessionUser> {
    const tokens = await this.auth.refresh(readCookie(request, REFRESH_COOKIE));
    if (!tokens) {
      clearAuthCookies(response, this.config);
      throw new UnauthorizedException('Your session has ended. Sign in again.');
    }
    setAuthCookies(response, this.config, tokens);
    return tokens.user;
  }

  /** Public so that a stale or already-revoked session can still clear its cookie. */
  @Public()
  @Post('logout')
  @HttpCode(204)
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    await this.auth.logout(readCookie(request, SESSION_COOKIE), readCookie(request, REFRESH_COOKIE));
    clearAuthCookies(response, this.config);
    rotateCsrfCookie(response, this.config);
  }

  @Public()
  @RateLimit('forgot', { scope: 'ip', limit: 10, windowSeconds: HOUR }, { scope: 'account', limit: 5, windowSeconds: HOUR })
  @Post('forgot-password')
  @HttpCode(202)
  async forgotPassword(@Body() body: ForgotPasswordDto): Promise<MessageResponse> {
    await this.auth.requestPasswordReset(body.email);
    return { message: 'If an account exists for that address, a reset link is on its way. It works for 30 minutes.' };
  }

  @Public()
  @RateLimit('reset', { scope: 'ip', limit: 10, windowSeconds: HOUR })
  @Post('reset-password')
  @HttpCode(204)
  async resetPassword(
    @Body() body: ResetPasswordDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const userId = await this.auth.resetPassword(body.token, body.password);
    if (!userId) throw new BadRequestException('This reset link has expired or was already used: request a new one');
    clearAuthCookies(response, this.config);
    // The link came through the mailbox: this browser belongs to the owner, whatever strangers are trying.
    rememberDevice(
      response,
      this.config,
      this.secrets.authSecret,
      readDeviceCookie(request, this.secrets.authSecret),
      this.auth.deviceKeyOf(userId),
    );
  }

  /**
   * The link in the verification e-mail. Verifies, then lands on a page that says so: the profile
   * when this browser is signed in, the sign-in screen otherwise (the link is often opened in
   * another browser than the one that registered).
   */
  @Public()
  @Get('verify-email')
  async verifyEmail(@Query() query: VerifyEmailQueryDto, @Req() request: Request, @Res() response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    const note = readSignupCookie(request, this.secrets.authSecret);
    const { verified, signIn } = await this.auth.verifyEmail(query.token, note?.nonce ?? null, request.header('user-agent'));
    if (signIn) {
      // The browser that registered: the sign-up is finished here, signed in, where it was going.
      clearSignupCookie(response, this.config);
      setAuthCookies(response, this.config, signIn);
      applyAccountColorMode(response, this.config, signIn.user);
      rotateCsrfCookie(response, this.config);
      rememberDevice(
        response,
        this.config,
        this.secrets.authSecret,
        readDeviceCookie(request, this.secrets.authSecret),
        this.auth.deviceKeyOf(signIn.user.id),
      );
      response.redirect(302, note?.redirect ?? HOME_AFTER_SIGN_IN);
      return;
    }
    const signedIn = await this.auth.isSignedIn(readCookie(request, SESSION_COOKIE), readCookie(request, REFRESH_COOKIE));
    response.redirect(302, verifyEmailLanding({ signedIn, verified }));
  }

  @SignedIn()
  @RateLimit('resend-verification', { scope: 'ip', limit: 5, windowSeconds: HOUR })
  @Post('verify-email/resend')
  @HttpCode(202)
  async resendVerification(@CurrentUser() user: SessionUser): Promise<MessageResponse> {
    await this.auth.sendVerification(user);
    return { message: `A new confirmation link is on its way to ${user.email}.` };
  }

  @SignedIn()
  @Get('me')
  me(@CurrentUser() user: SessionUser, @Res({ passthrough: true }) response: Response): SessionUser {
    response.setHeader('Cache-Control', 'private, no-store');
    return user;
  }
}
