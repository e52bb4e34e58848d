// Real release-to-release pairs: filled in below.
export interface Releases {
  dir: string;
  packages: string[];
  cases: (base: string) => never[];
}
export async function fetchReleases(_dir: string): Promise<undefined> {
  return undefined;
}
