/**
 * Server test setup (vitest `setupFiles`): provider clients built without a checked fetch (a provider's unit test
 * against its loopback simulator) get one that allows loopback. Apps built by the harness do not use this default:
 * their fetch comes from their configuration (OUTBOUND_ALLOW, loopback unless a test sets it empty), and the SSRF
 * tests build theirs with the strict policy.
 */
import { parseOutboundAllow } from '../platform/net/address-policy.js';
import { setDefaultOutboundForTests } from '../platform/net/outbound.js';
import { createOutboundFetch } from '../platform/net/safe-fetch.js';

setDefaultOutboundForTests(
  createOutboundFetch({ policy: { allow: parseOutboundAllow('127.0.0.0/8,::1'), trustedOrigins: [] } }),
);
