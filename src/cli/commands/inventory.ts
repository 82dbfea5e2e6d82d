/** What `infrastructureInventory` answers: servers, each with its services. */
export interface Inventory {
  servers: {
    id: string;
    name: string;
    host: string;
    sshPort: number;
    status: string;
    hostKeyFingerprint: string;
    lastCheck: { at: string; ok: boolean; latencyMs: number | null } | null;
    services: {
      id: string;
      name: string;
      environment: string;
      imageRepository: string;
      currentImage: string | null;
      health: string;
    }[];
  }[];
}
