import { defineEvent } from '../eventstore/define-event.js';

// Stream `deploy-upload-<uploadId>`: one build-context upload, from intake to its checked bytes.

/** An upload slot handed to a principal: only it may fill it, before it expires. */
export const UploadOpened = defineEvent<{
  uploadId: string;
  principalId: string;
  maxBytes: number;
  expiresAt: string;
}>('UploadOpened', 1);

/** The gzip tar received in full and checked entry by entry (no links, nothing outside). */
export const UploadReceived = defineEvent<{
  uploadId: string;
  sha256: string;
  bytes: number;
  entries: number;
}>('UploadReceived', 1);

export const uploadStream = (uploadId: string) => `deploy-upload-${uploadId}`;

// Stream `server-images-<serverId>`: image operations run on a server over SSH.

/** A pull, removal, prune or load of images on a server, and how it ended. */
export const ServerImagesChanged = defineEvent<{
  serverId: string;
  operation: 'pull' | 'remove' | 'prune' | 'load';
  reference: string | null;
  ok: boolean;
  failure: string | null;
  /** For a load: the SHA-256 and size of the tarball streamed to the server. */
  sha256: string | null;
  bytes: number | null;
}>('ServerImagesChanged', 1);

export const serverImagesStream = (serverId: string) => `server-images-${serverId}`;
