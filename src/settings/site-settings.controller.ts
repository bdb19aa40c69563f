import { Body, Controller, Get, Header, HttpCode, Inject, Param, Post, Put, Req, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import type { SessionUser } from '../../lib/api/auth.js';
import {
  ANNOUNCEMENT_DISMISSED_COOKIE,
  type AnnouncementSettings,
  type ContactSettings,
  type GeneralSettings,
  type PrivacySettingsResponse,
  type PublicPrivacyPolicy,
  type PublicSiteSettings,
  type PublicSponsors,
  type PublicTerms,
  type RegistrationSettings,
  SPONSOR_LOGO_FIELD,
  SPONSOR_LOGO_MAX_BYTES,
  type SponsorLogoUploadResponse,
  type SponsorsSettings,
  type TermsSettingsResponse,
} from '../../lib/api/site-settings.js';
import { normaliseEmailAddress } from '../../lib/accounts/email-address.js';
import type { LegalValues } from '../../lib/legal/placeholders.js';
import { baseCookieOptions, readCookie } from '../auth/auth-cookies.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { OptionalSession, SessionUserIfAny } from '../auth/decorators/optional-session.decorator.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { sendStoredFile } from '../storage/send-stored-file.js';
import {
  AnnouncementSettingsDto,
  ContactSettingsDto,
  DismissAnnouncementDto,
  GeneralSettingsDto,
  PrivacySettingsDto,
  RegistrationSettingsDto,
  SponsorsSettingsDto,
  TermsSettingsDto,
} from './dto/site-settings.dto.js';
import { SiteSettingsService, SPONSOR_LOGO_CACHE_CONTROL } from './site-settings.service.js';

const DISMISSAL_COOKIE_MS = 365 * 24 * 60 * 60 * 1000;

/** One GET + PUT per section of /admin/settings; every PUT is audited by the service. */
@Roles('admin')
@Controller('api/admin/site-settings')
export class AdminSiteSettingsController {
  constructor(private readonly settings: SiteSettingsService) {}

  @Get('general')
  @Header('Cache-Control', 'private, no-store')
  general(): Promise<GeneralSettings> {
    return this.settings.section('general');
  }

  @Put('general')
  saveGeneral(@CurrentUser() actor: SessionUser, @Body() body: GeneralSettingsDto): Promise<GeneralSettings> {
    return this.settings.update(actor, 'general', { siteName: body.siteName.trim() });
  }

  @Get('registration')
  @Header('Cache-Control', 'private, no-store')
  registration(): Promise<RegistrationSettings> {
    return this.settings.section('registration');
  }

  @Put('registration')
  saveRegistration(@CurrentUser() actor: SessionUser, @Body() body: RegistrationSettingsDto): Promise<RegistrationSettings> {
    return this.settings.update(actor, 'registration', { open: body.open });
  }

  @Get('announcement')
  @Header('Cache-Control', 'private, no-store')
  announcement(): Promise<AnnouncementSettings> {
    return this.settings.section('announcement');
  }

  @Put('announcement')
  saveAnnouncement(@CurrentUser() actor: SessionUser, @Body() body: AnnouncementSettingsDto): Promise<AnnouncementSettings> {
    const { enabled, text, tone, linkLabel, linkUrl } = body;
    return this.settings.update(actor, 'announcement', {
      enabled,
      text: text.trim(),
      tone,
      linkLabel: linkLabel.trim(),
      linkUrl: linkUrl.trim(),
    });
  }

  @Get('sponsors')
  @Header('Cache-Control', 'private, no-store')
  sponsors(): Promise<SponsorsSettings> {
    return this.settings.section('sponsors');
  }

  @Put('sponsors')
  saveSponsors(@CurrentUser() actor: SessionUser, @Body() body: SponsorsSettingsDto): Promise<SponsorsSettings> {
    return this.settings.update(actor, 'sponsors', body);
  }

  /** Stores the file only; it shows on /sponsor once a saved sponsor names it. */
  @Post('sponsor-logos')
  @UseInterceptors(FileInterceptor(SPONSOR_LOGO_FIELD, { limits: { fileSize: SPONSOR_LOGO_MAX_BYTES + 1, files: 1 } }))
  uploadLogo(
    @CurrentUser() actor: SessionUser,
    @UploadedFile() file: { buffer: Buffer; size: number } | undefined,
  ): Promise<SponsorLogoUploadResponse> {
    return this.settings.uploadLogo(actor, file);
  }

  @Get('privacy')
  @Header('Cache-Control', 'private, no-store')
  privacy(): Promise<PrivacySettingsResponse> {
    return this.settings.section('privacy');
  }

  @Put('privacy')
  savePrivacy(@CurrentUser() actor: SessionUser, @Body() body: PrivacySettingsDto): Promise<PrivacySettingsResponse> {
    return this.settings.update(actor, 'privacy', { markdown: body.markdown });
  }

  @Get('terms')
  @Header('Cache-Control', 'private, no-store')
  terms(): Promise<TermsSettingsResponse> {
    return this.settings.section('terms');
  }

  @Put('terms')
  saveTerms(@CurrentUser() actor: SessionUser, @Body() body: TermsSettingsDto): Promise<TermsSettingsResponse> {
    return this.settings.update(actor, 'terms', { markdown: body.markdown });
  }

  @Get('contact')
  @Header('Cache-Control', 'private, no-store')
  contact(): Promise<ContactSettings> {
    return this.settings.section('contact');
  }

  /** Stored in the addresses' normal form (domain in ASCII), as the mailto links need them. */
  @Put('contact')
  saveContact(@CurrentUser() actor: SessionUser, @Body() body: ContactSettingsDto): Promise<ContactSettings> {
    return this.settings.update(actor, 'contact', {
      legalEmail: normaliseEmailAddress(body.legalEmail)!,
      privacyEmail: normaliseEmailAddress(body.privacyEmail)!,
    });
  }

  /** What the legal documents' placeholders stand for now: the editors' previews fill them in with these. */
  @Get('legal-values')
  @Header('Cache-Control', 'private, no-store')
  legalValues(): Promise<LegalValues> {
    return this.settings.legalValues();
  }
}

/** What every page shows: the site name, whether registration is open, the announcement. */
@Controller('api')
export class SiteSettingsController {
  constructor(
    private readonly settings: SiteSettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Depends on who asks (a dismissed announcement is left out), so it is never shared by caches. */
  @OptionalSession()
  @Get('site-settings')
  @Header('Cache-Control', 'private, no-cache')
  current(@SessionUserIfAny() user: SessionUser | null, @Req() request: Request): Promise<PublicSiteSettings> {
    return this.settings.publicSettings({ user, dismissedCookie: readCookie(request, ANNOUNCEMENT_DISMISSED_COOKIE) });
  }

  /**
   * Remembered in a first-party functional cookie (so the next page, rendered on the server, leaves
   * the banner out with no flash) and, for a signed-in person, with the account (every device).
   */
  @OptionalSession()
  @Post('site-settings/announcement/dismiss')
  @HttpCode(204)
  async dismiss(
    @SessionUserIfAny() user: SessionUser | null,
    @Body() body: DismissAnnouncementDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.settings.dismissAnnouncement(user, body.version);
    response.cookie(ANNOUNCEMENT_DISMISSED_COOKIE, body.version, { ...baseCookieOptions(this.config), maxAge: DISMISSAL_COOKIE_MS });
  }

  @Public()
  @Get('site-settings/sponsors')
  @Header('Cache-Control', 'public, max-age=5')
  sponsors(): Promise<PublicSponsors> {
    return this.settings.publicSponsors();
  }

  @Public()
  @Get('site-settings/privacy-policy')
  @Header('Cache-Control', 'public, max-age=5')
  privacyPolicy(): Promise<PublicPrivacyPolicy> {
    return this.settings.publicPrivacyPolicy();
  }

  @Public()
  @Get('site-settings/terms')
  @Header('Cache-Control', 'public, max-age=5')
  terms(): Promise<PublicTerms> {
    return this.settings.publicTerms();
  }

  /** Public images by an unguessable id, served inert (own CSP, nosniff) as avatars are. */
  @Public()
  @Get('sponsor-logos/:id')
  async logo(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    await sendStoredFile(request, response, await this.settings.logo(id), SPONSOR_LOGO_CACHE_CONTROL);
  }
}
