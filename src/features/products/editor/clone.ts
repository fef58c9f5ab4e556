import { newKey, type AttributeForm, type OptionForm } from '../model/product-form';

/** A copy of an option with a fresh key and no platform id (a copy is a new option), for "Duplicate". */
export function cloneOption(option: OptionForm, nameSuffix = ' (copy)'): OptionForm {
  return structuredClone({ ...option, key: newKey(), id: '', name: option.name ? `${option.name}${nameSuffix}` : '' });
}

/** A copy of an attribute and its options, every one with a fresh key. */
export function cloneAttribute(attribute: AttributeForm): AttributeForm {
  return {
    ...structuredClone(attribute),
    key: newKey(),
    id: '',
    name: attribute.name ? `${attribute.name} (copy)` : '',
    options: attribute.options.map((option) => cloneOption(option, '')),
  };
}
