using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Core.Query;

/// <summary>
/// Walks the key runs of a plan one after the other and yields each document once (when the runs
/// may overlap or the index is multikey, documents already seen are skipped by primary key).
/// Documents are candidates only: the caller re-checks the filter. The sorter may ask to skip the
/// rest of the current key class (<see cref="SkipRestOfKeyClass"/>) once nothing further in it
/// can make the top N. In primary-key order (a join through an index, <see cref="IndexJoinScan"/>)
/// the runs' entries are gathered and sorted first; the sorter never asks for that order.
/// </summary>
internal sealed class CandidateScanner
{
    private readonly RawCollection _collection;
    private readonly IPageReader _pages;
    private readonly string? _indexName;
    private readonly IReadOnlyList<ScanRun> _runs;
    private readonly bool _descending;
    private readonly HashSet<byte[]>? _seen;
    private readonly bool _primaryKeyOrder;
    private int _runIndex = -1;
    private DocumentCursor? _cursor;
    private IndexJoinScan? _join;

    /// <summary>The collection scanned.</summary>
    public RawCollection Collection => _collection;

    /// <param name="primaryKeyOrder">Yield the documents of a secondary-index scan in primary-key order (see <see cref="IndexJoinScan"/>).</param>
    public CandidateScanner(RawCollection collection, IPageReader pages, string? indexName, IReadOnlyList<ScanRun> runs, bool descending, bool deduplicate,
        bool primaryKeyOrder = false)
    {
        _collection = collection;
        _pages = pages;
        _indexName = indexName;
        _runs = runs;
        _descending = descending;
        _primaryKeyOrder = primaryKeyOrder && indexName is not null;
        _seen = deduplicate && !_primaryKeyOrder ? new HashSet<byte[]>(ByteArrayComparer.Instance) : null;
    }

    public ReadOnlyMemory<byte> Document => _join is not null ? _join.Document : _cursor!.Document;

    public ReadOnlySpan<byte> PrimaryKey => _join is not null ? _join.PrimaryKey : _cursor!.PrimaryKey;

    public ScanRun CurrentRun => _runs[_runIndex];

    /// <summary>The current entry's key: field key for a secondary index, primary key otherwise.</summary>
    public ReadOnlySpan<byte> IndexKey => _cursor!.IndexKey;

    public bool MoveNext()
    {
        if (_primaryKeyOrder)
        {
            _join ??= new IndexJoinScan(_collection, _pages, _indexName!, _runs);
            return _join.MoveNext();
        }

        while (true)
        {
            if (_cursor is null)
            {
                if (++_runIndex >= _runs.Count)
                {
                    return false;
                }

                var run = _runs[_runIndex];
                _cursor = Open(run.Lower, run.LowerInclusive, run.Upper, run.UpperInclusive);
            }

            if (!_cursor.MoveNext())
            {
                _cursor = null;
                continue;
            }

            if (_seen is null || _seen.Add(_cursor.PrimaryKey.ToArray()))
            {
                return true;
            }
        }
    }

    /// <summary>
    /// Nothing after the current entry whose key component <paramref name="component"/> has the
    /// current type tag is wanted: jump past that tag within the run, or drop the run when the
    /// component is fixed for the whole run.
    /// </summary>
    public void SkipRestOfKeyClass(int component)
    {
        var run = CurrentRun;
        if (component < run.PrefixComponents)
        {
            _cursor = null;
            return;
        }

        var key = IndexKey;
        if (component > run.PrefixComponents || key.Length <= run.PrefixBytes)
        {
            return;
        }

        var classPrefix = key[..(run.PrefixBytes + 1)].ToArray();
        _cursor = _descending
            ? Open(run.Lower, run.LowerInclusive, classPrefix, false)
            : Open(classPrefix, false, run.Upper, run.UpperInclusive);
    }

    private DocumentCursor Open(byte[]? lower, bool lowerInclusive, byte[]? upper, bool upperInclusive)
    {
        var range = TransactionalBsonCollection.BuildRange(lower, lowerInclusive, upper, upperInclusive);
        return _indexName is null
            ? _collection.Scan(_pages, RawCollection.ToEntryRange(range), _descending)
            : _collection.ScanIndex(_pages, _indexName, range, _descending);
    }
}

internal sealed class ByteArrayComparer : IEqualityComparer<byte[]>
{
    public static ByteArrayComparer Instance { get; } = new();

    public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

    public int GetHashCode(byte[] obj)
    {
        var hash = new HashCode();
        hash.AddBytes(obj);
        return hash.ToHashCode();
    }
}
