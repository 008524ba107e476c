namespace BLite.Bson.Mapping;

/// <summary>
/// Builds the id-to-member lookup a generated deserializer dispatches on: <c>table[fieldId]</c> is
/// the member's ordinal + 1, or 0 for a field the type does not map. An array index is cheaper than
/// hashing, and the table is as long as the largest id the type uses, which stays small because
/// field ids are handed out densely per database.
/// </summary>
public static class BsonFieldOrdinals
{
    /// <summary>For types with at most 255 mapped members.</summary>
    public static byte[] Create(ReadOnlySpan<ushort> fieldIdsInMemberOrder)
    {
        if (fieldIdsInMemberOrder.Length > byte.MaxValue)
        {
            throw new ArgumentException("More than 255 members: use CreateWide.", nameof(fieldIdsInMemberOrder));
        }

        var table = new byte[MaxId(fieldIdsInMemberOrder) + 1];
        for (var i = 0; i < fieldIdsInMemberOrder.Length; i++)
        {
            table[fieldIdsInMemberOrder[i]] = (byte)(i + 1);
        }

        return table;
    }

    /// <summary>For types with more than 255 mapped members.</summary>
    public static ushort[] CreateWide(ReadOnlySpan<ushort> fieldIdsInMemberOrder)
    {
        if (fieldIdsInMemberOrder.Length >= ushort.MaxValue)
        {
            throw new ArgumentException("Too many members.", nameof(fieldIdsInMemberOrder));
        }

        var table = new ushort[MaxId(fieldIdsInMemberOrder) + 1];
        for (var i = 0; i < fieldIdsInMemberOrder.Length; i++)
        {
            table[fieldIdsInMemberOrder[i]] = (ushort)(i + 1);
        }

        return table;
    }

    private static int MaxId(ReadOnlySpan<ushort> ids)
    {
        var max = 0;
        foreach (var id in ids)
        {
            max = Math.Max(max, id);
        }

        return max;
    }
}
