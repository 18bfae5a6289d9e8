/** Rebuilding a per-host rule source from its descriptor, in any thread (see `HostRulesDescriptor`). */
import { bundleFromDescriptor } from './bundle-rules.js'
import type { HostRules, HostRulesDescriptor } from './host-rules.js'
import { DirectoryRules } from './robots-dir.js'

/** Rebuilds per-host rules from their descriptor. */
export function openHostRules(d: HostRulesDescriptor): HostRules {
  return d.kind === 'dir' ? DirectoryRules.fromDescriptor(d) : bundleFromDescriptor(d)
}
