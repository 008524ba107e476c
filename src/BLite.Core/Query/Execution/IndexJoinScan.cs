using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Core.Query;

/// <summary>
/// The inner side of a join through an index (an <c>IN</c> over the ids a first query found, see
/// docs/query.md, "Joins through an index"): the runs are walked on the index alone, their
/// primary keys gathered in one buffer, sorted and de-duplicated, and the documents then read in
/// primary-key order through one <see cref="SortedDocumentProbe"/>, so the primary index is crossed
/// once from left to right instead of once per entry from the root. Documents come out in
/// <c>_id</c> order, the order of a full scan.
/// </summary>
internal sealed class IndexJoinScan
{
    private readonly SortedDocumentProbe? _documents;
    private readonly PrimaryKeyBuffer _keys;
    private int _position = -1;
    private ReadOnlyMemory<byte> _document;

    public IndexJoinScan(RawCollection collection, IPageReader pages, string indexName, IReadOnlyList<ScanRun> runs)
    {
        _keys = GatherKeys(collection, pages, indexName, runs);
        _documents = _keys.Count == 0 ? null : collection.ProbeDocuments(pages);
    }

    /// <summary>
    /// The runs' primary keys, read from the index entries alone through one finger (the runs
    /// come in ascending order), sorted and distinct.
    /// </summary>
    public static PrimaryKeyBuffer GatherKeys(RawCollection collection, IPageReader pages, string indexName, IReadOnlyList<ScanRun> runs)
    {
        var keys = new PrimaryKeyBuffer();
        var entries = collection.ProbeIndexKeys(pages, indexName);
        if (entries is null)
        {
            return keys;
        }

        foreach (var run in runs)
        {
            entries.Start(run.Range);
            while (entries.MoveNext())
            {
                keys.Add(entries.PrimaryKey);
            }
        }

        keys.SortDistinct();
        return keys;
    }

    public ReadOnlyMemory<byte> Document => _document;

    public ReadOnlySpan<byte> PrimaryKey => _keys[_position];

    public bool MoveNext()
    {
        if (_documents is null || _position + 1 >= _keys.Count)
        {
            _document = default;
            return false;
        }

        _document = _documents.Read(_keys[++_position]);
        return true;
    }
}
