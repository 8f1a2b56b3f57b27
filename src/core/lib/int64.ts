// The int64 range and the decimal text of an integer, shared by validation, cursors and storage.
export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

/** A decimal integer without leading zeros or a plus sign, as a path, query or cursor carries it. */
export const integerText = /^-?(0|[1-9]\d*)$/

export const isInt64 = (value: bigint): boolean => value >= INT64_MIN && value <= INT64_MAX
