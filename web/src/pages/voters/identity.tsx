// A voter's identity as an owner reads it: the kind in words beside its value (README "Voters").
import type { VoterIdentityKind } from '../../gql/graphql';

export const IDENTITY_KIND: Record<VoterIdentityKind, string> = {
  discord: 'Discord id',
  minecraft: 'Minecraft (Java)',
  minecraft_uuid: 'Minecraft UUID',
  bedrock: 'Bedrock',
  hytale: 'Hytale',
  name: 'Name',
};

export function Identity({ kind, value }: { kind: VoterIdentityKind; value: string }) {
  return (
    <span className="identity">
      <span className="identity-kind">{IDENTITY_KIND[kind]}</span> <code className="wrap-anywhere">{value}</code>
    </span>
  );
}
