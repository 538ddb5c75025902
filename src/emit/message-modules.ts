/**
 * A plan's message modules: one object a file, which knows its message type by name and renders
 * from the view of its descriptor that its input hashes (`plan.ts`).
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
      descriptorOf: (name: string) => Descriptor;
      fields: boolean;
      int64: Int64Type;
      render: (message: Descriptor, name: PlannedName, kind: ModuleKind, int64: Int64Type | undefined) => string;
    },
  ) {}

  /**
   * The int64 setting a module reads: only where the record types have a 64-bit field, the only
   * place it shows (changing it re-renders those modules alone).
   */
  #int64(descriptor: Descriptor): Int64Type | undefined {
    return this.settings.fields && hasInt64Field(descriptor) ? this.settings.int64 : undefined;
  }

  /** The input of `descriptor`'s module, one for every kind (the kind is its path's, which the manifest keys by), and its planned name. */
  input(descriptor: Descriptor, context: string): { input: string; name: PlannedName } {
    const { fields } = this.settings;
    const name = this.settings.names.get(descriptor.name)!;
    const message = messageView(descriptor, fields);
    const int64 = this.#int64(descriptor);
    return { input: hashOf(`${context}\0${JSON.stringify(int64 === undefined ? [message, name, fields] : [message, name, fields, int64])}`), name };
  }

  /** The text of message `name`'s module of `kind`, from the same view its input hashes. */
  render(name: string, kind: ModuleKind): string {
    const descriptor = this.settings.descriptorOf(name);
    return this.settings.render(messageView(descriptor, this.settings.fields), this.settings.names.get(name)!, kind, this.#int64(descriptor));
  }
}

/**
 * A message module of the plan, known by its message type's name. A class, not an object with a
 * closure: a plan holds one a file, and the descriptor and view a module reads are got again
 * when it renders rather than kept (for 100,000 types a closure, its context, a descriptor and a
 * view each would be hundreds of bytes more a type).
 */
export class MessageModuleFile implements PlannedFile {
  readonly formatted = true;

  constructor(
    readonly path: string,
    readonly input: string,
    private readonly modules: MessageModules,
    private readonly name: string,
    private readonly kind: ModuleKind,
  ) {}

  render(): string {
    return this.modules.render(this.name, this.kind);
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
