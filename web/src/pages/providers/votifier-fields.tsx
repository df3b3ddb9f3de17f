// What a Votifier list asks for, each with a copy button; the token only where it is shown (creation, new secret).
import { CopyField } from '../../copy-field';

export type VotifierSetup = { host: string; port: number; publicKey: string; token?: string | null };

export function VotifierFields({ setup, webhookUrl, idPrefix }: { setup: VotifierSetup; webhookUrl?: string; idPrefix: string }) {
  return (
    <>
      <CopyField label="Host" value={setup.host} idPrefix={idPrefix} />
      <CopyField label="Port" value={String(setup.port)} idPrefix={idPrefix} />
      <CopyField label="Public key (protocol v1)" value={setup.publicKey} idPrefix={idPrefix} />
      {setup.token && <CopyField label="Token (protocol v2)" value={setup.token} idPrefix={idPrefix} />}
      {webhookUrl && <CopyField label="Votifier over HTTP URL" value={webhookUrl} idPrefix={idPrefix} />}
    </>
  );
}
