import { Command } from 'commander';
import { action, CommandContext } from '../context';
import type { UploadRecord } from '../upload/upload-status';
import { interruptible } from '../interrupt';
import { unpublishedUpload, verificationGoesOn, waitForUpload } from '../upload/upload-status';

export function showUpload(context: CommandContext, upload: UploadRecord): void {
  context.output.result(upload, () => {
    const { file, ...fields } = upload;
    context.output.record({ ...fields, ...(file ? { fileId: file.fileId, checksum: file.checksum } : {}) });
  });
}

export function uploadsCommand(): Command {
  const command = new Command('uploads').description('Upload sessions: show, wait, abort');

  command.command('show <uploadId>').description("Show an upload's status")
    .action(action(async (context, uploadId: string) => {
      const data = await context.client().getUpload({ uploadId });
      showUpload(context, data);
    }));

  command.command('wait <uploadId>').description('Wait until an upload is verified; exits 4 with the reason when it failed or expired')
    .action(action(async (context, uploadId: string) => {
      let told: string | undefined;
      const upload = await interruptible(verificationGoesOn(uploadId), (signal) => waitForUpload(context.client(), uploadId, (state) => {
        if (state.status !== told) context.output.note(`${state.uploadId}: ${(told = state.status)}`);
      }, signal));
      showUpload(context, upload);
      const failure = unpublishedUpload(upload);
      if (failure) throw failure;
    }));

  command.command('abort <uploadId>').description('Abort an upload not completed: its stored parts are discarded and its file name is free again')
    .action(action(async (context, uploadId: string) => {
      const data = await context.client().abortUpload({ uploadId });
      showUpload(context, data);
    }));

  return command;
}
