import type { Generated } from 'kysely';
import type { Int8Id, CreatedAt } from './columns.js';

// What the site shows and collects: messages of the day, settings, enquiries and the newsletter.

export type MotdTable = {
  id: Int8Id;
  message: string;
  starts_at: Date;
  ends_at: Date;
  created_by_staff_id: number;
  created_at: Generated<Date>;
};

/** Settings staff change at run time, one value per key (0015). */
export type AppSettingsTable = {
  key: string;
  value: string;
  updated_at: Generated<Date>;
};

export type NewsletterStatus = 'pending' | 'confirmed' | 'unsubscribed';

export type NewsletterSubscribersTable = {
  id: Generated<number>;
  email: string;
  status: Generated<NewsletterStatus>;
  confirm_token_hash: string | null;
  confirm_expires_at: Date | null;
  unsubscribe_token_hash: string;
  unsubscribe_token_encrypted: string;
  consent_text: string;
  consent_at: Date;
  consent_ip: string;
  confirmed_at: Date | null;
  unsubscribed_at: Date | null;
  created_at: CreatedAt;
};

/** Product enquiries from the contact page (migration 0021). */
export type EnquiriesTable = {
  id: Generated<number>;
  type: 'general' | 'business' | 'press' | 'support';
  first_name: string;
  last_name: string;
  email: string;
  message: string;
  created_at: CreatedAt;
  forwarded_at: Date | null;
};
