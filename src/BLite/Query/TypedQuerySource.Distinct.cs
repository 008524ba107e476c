using BLite.Core.BTrees;
using BLite.Core.Collections;
using BLite.Core.Collections.Catalog;
using BLite.Core.Diagnostics;
using BLite.Core.Query;
using BLite.Core.Storage;
using BLite.Linq;

namespace BLite.Query;

internal sealed partial class TypedQuerySource<TId, T> : IDistinctValueSource
{
    private const int StepsBeforeSeek = 8;

    private int _distinctWalks;

    /// <summary>How many Distinct queries were answered from index keys (for tests).</summary>
    internal int DistinctWalks => _distinctWalks;

    public IReadOnlyList<object?>? DistinctValues(ValueExpression value, Type type)
    {
        if (!CanWalk(value, type, out var path))
        {
            return null;
        }

        var started = BLiteTelemetry.StartOperation();
        var values = _collection.Context.Read((Collection: _collection.Documents, Path: path, Type: type),
            static (pages, s) => Walk(s.Collection, pages, s.Path, s.Type));
        Measured(started, "query");
        if (values is not null)
        {
            Interlocked.Increment(ref _distinctWalks);
        }

        return values;
    }

    public string? DistinctIndex(ValueExpression value, Type type) =>
        CanWalk(value, type, out var path)
            ? _collection.Context.Read((Collection: _collection.Documents, Path: path), static (pages, s) => FindIndex(s.Collection, pages, s.Path)?.Definition.Name)
            : null;

    /// <summary>A stored member the model knows to be single-valued (one index entry per document, Null where it is missing), of a type whose key gives the value back.</summary>
    private bool CanWalk(ValueExpression value, Type type, out string path)
    {
        path = value is FieldValue field ? field.Path.Path : "";
        return path.Length > 0 && path != FieldPath.Id.Path && IndexKeyValues.Supports(type) && _collection.IsSingleValuedPath(path);
    }

    private static IndexInfo? FindIndex(RawCollection collection, IPageReader pages, string path) =>
        collection.Resolve(pages)?.Indexes.FirstOrDefault(i => i.Definition.FieldPaths.Count == 1 && string.Equals(i.Definition.FieldPaths[0], path, StringComparison.Ordinal));

    /// <summary>
    /// One value per run of equal field keys; null as soon as a key cannot be read back exactly.
    /// A key met more than <see cref="StepsBeforeSeek"/> times in a row is skipped by seeking past
    /// it (an exclusive lower bound skips every entry of that key), so a path with few values costs
    /// a few descents instead of a walk over every entry, and a path with many stays a walk.
    /// Entries are ordered by field key, then primary key, so a run's first entry holds the
    /// smallest primary key of the documents with that value: sorting the values by it gives the
    /// order a primary-key scan would first meet them in, which is LINQ's first-seen order.
    /// </summary>
    private static List<object?>? Walk(RawCollection collection, IPageReader pages, string path, Type type)
    {
        if (FindIndex(collection, pages, path) is not { } index)
        {
            return null;
        }

        var name = index.Definition.Name;
        var found = new List<(byte[] FirstKey, object? Value)>();
        var cursor = collection.ScanIndexKeys(pages, name, KeyRange.All);
        var positioned = cursor.MoveNext();
        while (positioned)
        {
            var key = cursor.FieldKey.ToArray();
            if (!IndexKeyValues.TryRead(key, type, out var value))
            {
                return null;
            }

            found.Add((cursor.PrimaryKey.ToArray(), value));
            var steps = 0;
            while ((positioned = cursor.MoveNext()) && cursor.FieldKey.SequenceEqual(key))
            {
                if (++steps == StepsBeforeSeek)
                {
                    cursor = collection.ScanIndexKeys(pages, name, KeyRange.From(key, inclusive: false));
                    positioned = cursor.MoveNext();
                    break;
                }
            }
        }

        found.Sort(static (a, b) => a.FirstKey.AsSpan().SequenceCompareTo(b.FirstKey));
        return found.ConvertAll(f => f.Value);
    }
}
