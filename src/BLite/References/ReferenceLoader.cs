namespace BLite;

/// <summary>
/// Resolves a batch of references of one type in one pass: the distinct ids are encoded, sorted by
/// primary key and probed in that order inside one read, so the primary index is walked once from
/// left to right (pages shared by neighbouring ids are met back to back) instead of N unrelated
/// lookups.
/// </summary>
internal abstract class ReferenceLoader
{
    public abstract void Add(IDocumentReference reference);

    public abstract void Load(QuerySnapshot snapshot, MissingReference missing);
}

internal sealed class ReferenceLoader<TId, T> : ReferenceLoader
    where TId : notnull
    where T : class
{
    private readonly Dictionary<TId, List<DocumentRef<TId, T>>> _byId = new();

    public override void Add(IDocumentReference reference)
    {
        var typed = (DocumentRef<TId, T>)reference;
        if (!_byId.TryGetValue(typed.Id, out var list))
        {
            _byId.Add(typed.Id, list = []);
        }

        list.Add(typed);
    }

    public override void Load(QuerySnapshot snapshot, MissingReference missing)
    {
        var collection = snapshot.Context.CollectionOf<TId, T>();
        var probes = new (byte[] Key, TId Id)[_byId.Count];
        var i = 0;
        foreach (var id in _byId.Keys)
        {
            probes[i++] = (collection.LookupKey(id).Span.ToArray(), id);
        }

        Array.Sort(probes, static (a, b) => a.Key.AsSpan().SequenceCompareTo(b.Key));
        var found = snapshot.Read((Collection: collection, Probes: probes), static (pages, s) =>
        {
            var documents = new T?[s.Probes.Length];
            for (var p = 0; p < documents.Length; p++)
            {
                documents[p] = s.Collection.FindByIdCore(pages, s.Probes[p].Key);
            }

            return documents;
        });

        for (var p = 0; p < probes.Length; p++)
        {
            if (found[p] is null && missing == MissingReference.Throw)
            {
                throw new BLiteDanglingReferenceException(collection.Name, probes[p].Id!);
            }
        }

        for (var p = 0; p < probes.Length; p++)
        {
            foreach (var reference in _byId[probes[p].Id])
            {
                reference.Resolve(found[p]);
            }
        }
    }
}
