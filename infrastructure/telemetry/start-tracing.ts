import { register } from 'node:module';
import { tracingStarted } from './tracing.js';
import { tracingSettings, TracingSettingsError, type TracingSettings } from './tracing-settings.js';

/**
 * Starts OpenTelemetry tracing when the OTEL_* variables ask for it (tracing-settings.ts), before the service's
 * modules are imported: bin/start.js and bin/feed.js await this, then import the service. Off, nothing of the
 * SDK is even loaded. On, import-in-the-middle's loader hook is registered for the module the
 * instrumentation patches (pg), since the service is ECMAScript modules; the instrumentation then sees it when
 * the service imports it.
 */
export async function startTracing(defaultServiceName: string): Promise<void> {
  const settings = settingsOrExit(defaultServiceName);
  if (!settings.on) return;
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  // Only the modules an instrumentation asked for are wrapped (import-in-the-middle's documented setup).
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const { startTracingSdk } = await import('./tracing-sdk.js');
  const shutdown = startTracingSdk(settings.protocol, defaultServiceName);
  await waitForAllMessagesAcknowledged();
  tracingStarted(shutdown);
}

/** A variable the service cannot honour stops the start, as any other setting it cannot use. */
function settingsOrExit(processName: string): TracingSettings {
  try {
    return tracingSettings();
  } catch (error) {
    if (!(error instanceof TracingSettingsError)) throw error;
    process.stderr.write(`${processName}: cannot start: ${error.message}\n`);
    process.exit(1);
  }
}
