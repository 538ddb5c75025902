/**
 * A plan's message modules: one object a file, which holds its descriptor and renders from the
 * view of it that its input hashes (`plan.ts`).
 */
import type { Descriptor } from '../model/descriptor.js';
import { makeDescriptor } from '../model/descriptor.js';
import type { FieldDescriptor } from '../model/field.js';
import type { Int64Type } from '../model/lockfile.js';
import { hashOf } from '../util/hash.js';
import type { PlannedName } from './naming.js';
import type { PlannedFile } from './plan.js';
import { hasInt64Field } from './record-field-types.js';
import type { ModuleKind } from './targets.js';

/** How a plan's message modules are made: their names, the settings they read, and the renderer. */
export class MessageModules {
  constructor(
    private readonly settings: {
      names: ReadonlyMap<string, PlannedName>;
      fields: boolean;
      int64: Int64Type;
      render: (message: Descriptor, name: PlannedName, kind: ModuleKind, int64: Int64Type | undefined) => string;
    },
  ) {}

  /**
   * The input of a module, one for every kind (the kind is its path's, which the manifest keys
   * by): the hash of its type's {@link moduleViewKey}, planned name and `context` (renderer,
   * banner); and that planned name.
   */
  input(viewKey: string, typeName: string, context: string): { input: string; name: PlannedName } {
    const name = this.settings.names.get(typeName)!;
    return { input: hashOf(`${context}\0${viewKey}\0${JSON.stringify(name)}`), name };
  }

  /** The text of `descriptor`'s module of `kind`, from the same view its input hashes. */
  render(descriptor: Descriptor, kind: ModuleKind): string {
    const { fields, int64 } = this.settings;
    return this.settings.render(messageView(descriptor, fields), this.settings.names.get(descriptor.name)!, kind, int64Read(descriptor, fields, int64));
  }
}

/**
 * The hash of what a message module reads of its descriptor ({@link messageView}, and the int64
 * setting where it shows): a module's input is made of it once the names are planned.
 */
export function moduleViewKey(descriptor: Descriptor, fields: boolean, int64: Int64Type): string {
  const read = int64Read(descriptor, fields, int64);
  const view = messageView(descriptor, fields);
  return hashOf(JSON.stringify(read === undefined ? [view, fields] : [view, fields, read]));
}

/**
 * The int64 setting a module reads: only where the record types have a 64-bit field, the only
 * place it shows (changing it re-renders those modules alone).
 */
function int64Read(descriptor: Descriptor, fields: boolean, int64: Int64Type): Int64Type | undefined {
  return fields && hasInt64Field(descriptor) ? int64 : undefined;
}

/** A message module of the plan: its path, input and descriptor. */
export class MessageModuleFile implements PlannedFile {
  readonly formatted = true;

  constructor(
    readonly path: string,
    readonly input: string,
    private readonly modules: MessageModules,
    private readonly descriptor: Descriptor,
    private readonly kind: ModuleKind,
  ) {}

  render(): string {
    return this.modules.render(this.descriptor, this.kind);
  }
}

/**
 * What a message module reads of a descriptor: its known fields, its description (the one
 * unknown key it shows), and with fields on its field descriptors without their unknown keys.
 * Other unknown keys are not shown, so they are not part of its input either: their key order,
 * which a lockfile may hold otherwise than the service sent it, re-renders nothing.
 */
function messageView(descriptor: Descriptor, fields: boolean): Descriptor {
  const desc = descriptor.extra['desc'];
  // Built field by field (makeDescriptor), not by object rest and spread: V8 gives each object
  // made that way a hidden class of its own, and a view is made for each module's input and render.
  const view = makeDescriptor(descriptor, typeof desc === 'string' ? { desc } : {});
  if (fields && descriptor.fields !== undefined) view.fields = descriptor.fields.map(fieldView);
  return view;
}

/** What a module or the index reads of a field descriptor: its known keys, no unknown ones. */
export function fieldView(field: FieldDescriptor): FieldDescriptor {
  const { extra: _unknown, ...known } = field;
  return { ...known, extra: {} };
}
