/** Types for scripts/crawlee-fixture.mjs (imported by the tests). */
export const FIXTURE: string
export function installCrawlee(options?: { dropIn?: string }): { dir: string; skip?: undefined } | { skip: string; dir?: undefined }
