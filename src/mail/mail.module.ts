import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { FileMailSender } from './file-mail-sender.js';
import { MAIL_SENDER } from './mail-sender.port.js';
import { SmtpMailSender } from './smtp-mail-sender.js';

@Global()
@Module({
  providers: [
    {
      provide: MAIL_SENDER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        config.smtpUrl
          ? new SmtpMailSender(config.smtpUrl, config.mailFrom)
          : new FileMailSender(join(config.dataDir, 'mail'), config.mailFrom),
    },
  ],
  exports: [MAIL_SENDER],
})
export class MailModule {}
