import { Injectable } from '@nestjs/common';
import { KeyedTurns } from '../../database/keyed-turns.js';

/**
 * The writes of this instance to one campaign document, one at a time (key: the campaign's id).
 * The sender adds its counts while an admin pauses or cancels: FerretDB applies each update as a
 * read and a write of the whole document, so over a pool of connections a count added from a read
 * made before a cancel brought `state: 'sending'` back, and the end of the campaign then marked
 * the cancelled campaign sent (docs/database.md, "Several connections"). Shared by the sender and
 * the admin's service, so both take their turns on the same queue.
 */
@Injectable()
export class CampaignTurns extends KeyedTurns {}
