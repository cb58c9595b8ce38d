export async function seedDemo(_c: unknown): Promise<string> { return ""; }
