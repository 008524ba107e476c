namespace BLite.Core.Collections.Indexes;

/// <summary>Which keys an update removes and adds, from two bytewise-sorted distinct key lists.</summary>
internal static class SortedKeyDiff
{
    public static (List<byte[]> Removed, List<byte[]> Added) Compute(List<byte[]> oldKeys, List<byte[]> newKeys)
    {
        var removed = new List<byte[]>();
        var added = new List<byte[]>();
        int o = 0, n = 0;
        while (o < oldKeys.Count && n < newKeys.Count)
        {
            var comparison = oldKeys[o].AsSpan().SequenceCompareTo(newKeys[n]);
            if (comparison == 0)
            {
                o++;
                n++;
            }
            else if (comparison < 0)
            {
                removed.Add(oldKeys[o++]);
            }
            else
            {
                added.Add(newKeys[n++]);
            }
        }

        while (o < oldKeys.Count)
        {
            removed.Add(oldKeys[o++]);
        }

        while (n < newKeys.Count)
        {
            added.Add(newKeys[n++]);
        }

        return (removed, added);
    }
}
