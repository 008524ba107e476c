using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.BTrees;

namespace BLite.Core.Query;

/// <summary>
/// The key bytes one index component may take for one query value: a point (a single encoded
/// value) or an interval. Used by <see cref="ScanRunBuilder"/>.
/// </summary>
internal readonly record struct KeyPiece(byte[] Lower, bool LowerInclusive, byte[] Upper, bool UpperInclusive, bool IsPoint)
{
    public static KeyPiece Point(byte[] key) => new(key, true, key, true, true);

    public static KeyPiece Interval(byte[] lower, bool lowerInclusive, byte[] upper, bool upperInclusive) =>
        new(lower, lowerInclusive, upper, upperInclusive, false);

    /// <summary>Every key of the given tag range (prefix semantics make a lone tag byte cover its whole class).</summary>
    public static KeyPiece Tags(KeyType first, KeyType last) => Interval([(byte)first], true, [(byte)last], true);

    public static byte[] Encode(BsonFieldDictionary fields, BsonValue value) => IndexKeys.Encode(fields, value);
}
