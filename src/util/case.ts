/** A setting's name as a flag's: `maxBytes` → `max-bytes`. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (char) => `-${char.toLowerCase()}`);
}

/** A flag's name as the key yargs gives its value under: `max-bytes` → `maxBytes`. */
export function camel(name: string): string {
  return name.replace(/-+([a-z0-9])/g, (_, char: string) => char.toUpperCase());
}
