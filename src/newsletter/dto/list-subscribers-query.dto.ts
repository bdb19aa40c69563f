import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { SUBSCRIBER_STATES, type AdminSubscriberQuery, type SubscriberState } from '../../../lib/api/newsletter.js';
import { PageQueryDto } from '../../common/page-query.dto.js';

export class SubscriberFilterDto {
  @IsOptional()
  @IsString({ message: 'q must be text' })
  @MaxLength(254, { message: 'q must be at most 254 characters' })
  q?: string;

  @IsOptional()
  @IsIn(SUBSCRIBER_STATES, { message: `state must be one of: ${SUBSCRIBER_STATES.join(', ')}` })
  state?: SubscriberState;
}

export class ListSubscribersQueryDto extends PageQueryDto implements AdminSubscriberQuery {
  @IsOptional()
  @IsString({ message: 'q must be text' })
  @MaxLength(254, { message: 'q must be at most 254 characters' })
  q?: string;

  @IsOptional()
  @IsIn(SUBSCRIBER_STATES, { message: `state must be one of: ${SUBSCRIBER_STATES.join(', ')}` })
  state?: SubscriberState;
}
