using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.BTrees;

namespace BLite.Core.Tests.Collections;

/// <summary>
/// The in-memory model the randomized test compares the database with: documents in a
/// SortedDictionary by id, and each index as a SortedSet of (field key, id) entries.
/// Immutable documents are shared between copies; the containers are copied on commit/rollback.
/// </summary>
internal sealed class CollectionModel
{
    private readonly IReadOnlyList<IndexDefinition> _indexes;
    private readonly BsonFieldDictionary _fields;

    // Model documents are never mutated, so each one's keys are computed once and shared by copies.
    private readonly ConditionalWeakTable<BsonDocument, List<byte[]>[]> _keys;

    public CollectionModel(IReadOnlyList<IndexDefinition> indexes, BsonFieldDictionary fields)
        : this(indexes, fields, new ConditionalWeakTable<BsonDocument, List<byte[]>[]>())
    {
    }

    private CollectionModel(IReadOnlyList<IndexDefinition> indexes, BsonFieldDictionary fields, ConditionalWeakTable<BsonDocument, List<byte[]>[]> keys)
    {
        _indexes = indexes;
        _fields = fields;
        _keys = keys;
        Entries = indexes.Select(_ => new SortedSet<(byte[] Key, int Id)>(EntryComparer.Instance)).ToArray();
    }

    public SortedDictionary<int, BsonDocument> Documents { get; private set; } = [];

    public SortedSet<(byte[] Key, int Id)>[] Entries { get; private set; }

    public CollectionModel Copy()
    {
        var copy = new CollectionModel(_indexes, _fields, _keys) { Documents = new SortedDictionary<int, BsonDocument>(Documents) };
        copy.Entries = Entries.Select(e => new SortedSet<(byte[] Key, int Id)>(e, EntryComparer.Instance)).ToArray();
        return copy;
    }

    /// <summary>The unique index that would refuse <paramref name="document"/>, or null.</summary>
    public string? UniqueConflict(int id, BsonDocument document)
    {
        for (var i = 0; i < _indexes.Count; i++)
        {
            if (!_indexes[i].Unique)
            {
                continue;
            }

            foreach (var key in KeysOf(document)[i])
            {
                var view = Entries[i].GetViewBetween((key, int.MinValue), (key, int.MaxValue));
                if (view.Any(e => e.Id != id))
                {
                    return _indexes[i].Name;
                }
            }
        }

        return null;
    }

    public void Put(int id, BsonDocument document)
    {
        Remove(id);
        Documents[id] = document;
        for (var i = 0; i < _indexes.Count; i++)
        {
            foreach (var key in KeysOf(document)[i])
            {
                Entries[i].Add((key, id));
            }
        }
    }

    public bool Remove(int id)
    {
        if (!Documents.Remove(id, out var old))
        {
            return false;
        }

        for (var i = 0; i < _indexes.Count; i++)
        {
            foreach (var key in KeysOf(old)[i])
            {
                Entries[i].Remove((key, id));
            }
        }

        return true;
    }

    private List<byte[]>[] KeysOf(BsonDocument document) =>
        _keys.GetValue(document, d => _indexes.Select(index => ModelIndexKeys.Keys(d, index.FieldPaths, _fields)).ToArray());

    /// <summary>Ids of the entries whose field key starts with <paramref name="prefix"/>, in index order.</summary>
    public List<int> IdsWithPrefix(int index, byte[] prefix)
    {
        var successor = KeyRange.Prefix(prefix);
        IEnumerable<(byte[] Key, int Id)> candidates = successor.HasUpperBound
            ? Entries[index].GetViewBetween((prefix, int.MinValue), (successor.UpperBound.ToArray(), int.MinValue))
            : Entries[index];
        return candidates.Where(e => e.Key.AsSpan().StartsWith(prefix)).Select(e => e.Id).ToList();
    }

    private sealed class EntryComparer : IComparer<(byte[] Key, int Id)>
    {
        public static readonly EntryComparer Instance = new();

        public int Compare((byte[] Key, int Id) x, (byte[] Key, int Id) y)
        {
            var byKey = x.Key.AsSpan().SequenceCompareTo(y.Key);
            return byKey != 0 ? byKey : x.Id.CompareTo(y.Id);
        }
    }
}
