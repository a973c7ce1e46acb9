/**
 * The length of a text in characters (Unicode code points), as JSON Schema's minLength and maxLength
 * count it and as people do: an emoji or any character beyond the Basic Multilingual Plane is one,
 * where JavaScript's `length` counts it as two UTF-16 units. A lone surrogate counts as one.
 */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        i += 1;
      }
    }
  }
  return count;
}
