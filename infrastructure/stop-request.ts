/**
 * Whether the process has been asked to stop (SIGTERM, SIGINT). From that moment `/readyz` answers 503, also
 * while the service goes on serving for SHUTDOWN_DELAY_MS and while it drains: a balancer that asks it takes
 * the instance out of rotation before the listener closes, instead of finding the port refused.
 */
export class StopRequest {
  private requested = false;

  get isRequested(): boolean {
    return this.requested;
  }

  /** Marks the process as stopping; for good. */
  request(): void {
    this.requested = true;
  }
}
