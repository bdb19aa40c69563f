import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Ip,
  Param,
  Patch,
  Post,
  Put,
  Req,
  Res,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import type { SessionUser } from '../../lib/api/auth.js';
import { AVATAR_FIELD, AVATAR_MAX_BYTES, type ChangePasswordResponse, type ProfileResponse } from '../../lib/api/profile.js';
import { clearAuthCookies, setColorModeCookie } from '../auth/auth-cookies.js';
import { CurrentSession, type CurrentSessionInfo } from '../auth/decorators/current-session.decorator.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { SignedIn } from '../auth/decorators/roles.decorator.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { RateLimit } from '../rate-limit/rate-limit.decorator.js';
import { sendStoredFile } from '../storage/send-stored-file.js';
import { ChangeEmailDto, ChangePasswordDto, DeleteAccountDto, UpdateProfileDto } from './dto/profile.dto.js';
import { AVATAR_CACHE_CONTROL, ProfileService } from './profile.service.js';

@Controller('api')
export class ProfileController {
  constructor(
    private readonly profile: ProfileService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @SignedIn()
  @Get('profile')
  get(@CurrentUser() user: SessionUser): Promise<ProfileResponse> {
    return this.profile.get(user);
  }

  @SignedIn()
  @Patch('profile')
  async update(
    @CurrentUser() user: SessionUser,
    @Body() body: UpdateProfileDto,
    @Ip() ip: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ProfileResponse> {
    const updated = await this.profile.update(user, body, ip);
    if (body.colorMode) setColorModeCookie(response, this.config, body.colorMode);
    return updated;
  }

  @SignedIn()
  @RateLimit('email-change', { scope: 'ip', limit: 10, windowSeconds: 3600 })
  @Post('profile/email')
  changeEmail(@CurrentUser() user: SessionUser, @Body() body: ChangeEmailDto): Promise<ProfileResponse> {
    return this.profile.requestEmailChange(user, body);
  }

  @SignedIn()
  @RateLimit('password-change', { scope: 'ip', limit: 10, windowSeconds: 3600 })
  @Post('profile/password')
  @HttpCode(200)
  changePassword(
    @CurrentUser() user: SessionUser,
    @CurrentSession() session: CurrentSessionInfo,
    @Body() body: ChangePasswordDto,
  ): Promise<ChangePasswordResponse> {
    return this.profile.changePassword(user, body, session.id);
  }

  @SignedIn()
  @Put('profile/avatar')
  @UseInterceptors(FileInterceptor(AVATAR_FIELD, { limits: { fileSize: AVATAR_MAX_BYTES + 1, files: 1 } }))
  setAvatar(
    @CurrentUser() user: SessionUser,
    @UploadedFile() file: { buffer: Buffer; size: number } | undefined,
  ): Promise<ProfileResponse> {
    return this.profile.setAvatar(user, file);
  }

  @SignedIn()
  @Delete('profile/avatar')
  removeAvatar(@CurrentUser() user: SessionUser): Promise<ProfileResponse> {
    return this.profile.removeAvatar(user);
  }

  @SignedIn()
  @Get('profile/export')
  async export(@CurrentUser() user: SessionUser, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Content-Disposition', 'attachment; filename="hitscope-my-data.json"');
    response.setHeader('Cache-Control', 'no-store');
    return this.profile.export(user);
  }

  @SignedIn()
  @Delete('profile')
  @HttpCode(204)
  async delete(
    @CurrentUser() user: SessionUser,
    @CurrentSession() session: CurrentSessionInfo,
    @Body() body: DeleteAccountDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.profile.deleteAccount(user, body.currentPassword, session.signedInAt);
    clearAuthCookies(response, this.config);
  }

  /** Avatars are public images addressed by an unguessable id; served so browsers never sniff them as HTML. */
  @Public()
  @Get('avatars/:id')
  async avatar(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    // A new avatar gets a new id, so the bytes behind one id never change.
    await sendStoredFile(request, response, await this.profile.avatar(id), AVATAR_CACHE_CONTROL);
  }
}
