using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// Expands a plan's resolved value ranges into key runs: the cross product of the key pieces of
/// each equality component, then the pieces of the trailing range. A component whose piece is an
/// interval ends the key there (later components are left to the filter re-check).
/// </summary>
internal static class ScanRunBuilder
{
    /// <summary>Beyond this many runs the index is not worth it: the executor scans the collection instead.</summary>
    private const int MaxRuns = 8192;

    public static bool TryBuild(IReadOnlyList<IndexValueRange> ranges, BsonFieldDictionary fields, out List<ScanRun> runs)
    {
        runs = new List<ScanRun>(ranges.Count);
        foreach (var range in ranges)
        {
            // One equality on the first key component (an equality, or one value of an IN): a
            // single point run, built without the cross product's lists.
            if (range.Prefix.Count == 1 && range.IsPoint && KeyPieces.TryPoint(range.Prefix[0], fields, out var point))
            {
                runs.Add(new ScanRun(point, true, point, true, 1, point.Length));
                if (runs.Count > MaxRuns)
                {
                    return false;
                }

                continue;
            }

            var open = new List<(byte[] Bytes, int Components)> { ([], 0) };
            foreach (var value in range.Prefix)
            {
                var pieces = KeyPieces.ForEquality(value, fields);
                var next = new List<(byte[] Bytes, int Components)>();
                foreach (var prefix in open)
                {
                    foreach (var piece in pieces)
                    {
                        if (piece.IsPoint)
                        {
                            next.Add((Concat(prefix.Bytes, piece.Lower), prefix.Components + 1));
                        }
                        else
                        {
                            runs.Add(RunOf(prefix.Bytes, prefix.Components, piece));
                        }
                    }
                }

                open = next;
                if (open.Count + runs.Count > MaxRuns)
                {
                    return false;
                }
            }

            if (range.Lower is not null || range.Upper is not null)
            {
                var pieces = KeyPieces.ForRange(range.Lower, range.Upper, fields);
                foreach (var prefix in open)
                {
                    foreach (var piece in pieces)
                    {
                        runs.Add(RunOf(prefix.Bytes, prefix.Components, piece));
                    }
                }
            }
            else
            {
                foreach (var prefix in open)
                {
                    runs.Add(prefix.Components == 0
                        ? ScanRun.All
                        : new ScanRun(prefix.Bytes, true, prefix.Bytes, true, prefix.Components, prefix.Bytes.Length));
                }
            }

            if (runs.Count > MaxRuns)
            {
                return false;
            }
        }

        return true;
    }

    private static ScanRun RunOf(byte[] prefix, int components, KeyPiece piece) =>
        new(Concat(prefix, piece.Lower), piece.LowerInclusive, Concat(prefix, piece.Upper), piece.UpperInclusive, components, prefix.Length);

    private static byte[] Concat(byte[] left, byte[] right)
    {
        var result = new byte[left.Length + right.Length];
        left.CopyTo(result, 0);
        right.CopyTo(result, left.Length);
        return result;
    }
}
