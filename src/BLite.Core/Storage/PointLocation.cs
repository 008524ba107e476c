namespace BLite.Core.Storage;

/// <summary>
/// Where a point read found its key in a leaf image: the key's slot, and the cell's value word
/// (length, and whether the value lives in an overflow chain) and value offset, so a lookup the
/// point index answers reads the value without the leaf's slot directory or cell header.
/// </summary>
internal readonly record struct PointLocation(int Index, int ValueOffset, uint ValueWord);
