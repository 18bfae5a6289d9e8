/**
 * The core's door into a `UrlScan`'s private record (url-scan-record.ts):
 * the class provides it when it is defined, so that a module that only
 * reads scans (the matcher's `matchScan`) does not import the class, and a
 * bundle that never makes a scan leaves the scanner out. Not part of the API.
 */
import { UrlField } from './url-scan.js'

/** Where the URL of a scan record ends: the field after url-scan.ts's. */
export const SCAN_END = UrlField.Size

/** What UrlScan gives the core: a scan's record (undefined for anything that is not a UrlScan), hashed or as it is, and what it scanned. */
export interface ScanAccess {
  offsets(scan: unknown): Int32Array | undefined
  hashed(scan: unknown): Int32Array | undefined
  source(scan: unknown): Uint8Array | string
}

let access: ScanAccess | undefined

/** Called once, by UrlScan's class body. */
export function provideScanAccess(a: ScanAccess): void {
  access = a
}

/** The record of `scan` as it is (its host's hash may not be computed yet), or undefined when it is not a UrlScan. */
export function scanOffsets(scan: unknown): Int32Array | undefined {
  return access === undefined ? undefined : access.offsets(scan)
}

/** The record of `scan` with its host hashed, or undefined when it is not a UrlScan. */
export function scanHashed(scan: unknown): Int32Array | undefined {
  return access === undefined ? undefined : access.hashed(scan)
}

/** What `scan` (a UrlScan) scanned last: bytes, or a string. */
export function scanSource(scan: unknown): Uint8Array | string {
  return access!.source(scan)
}
