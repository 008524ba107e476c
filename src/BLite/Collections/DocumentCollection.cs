using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Serialization;
using BLite.Core.Collections;
using BLite.Linq;
using BLite.Query;

namespace BLite;

/// <summary>
/// A typed collection of a <see cref="DocumentDbContext"/>. Documents are serialized by the
/// compile-time mapper into pooled buffers and stored as C-BSON. Every operation joins the
/// calling flow's transaction (<see cref="DocumentDbContext.BeginTransaction"/>) or runs in one
/// of its own: writes commit before returning, reads use a snapshot of the last commit and never
/// wait for a writer. An <c>ObjectId</c>, <c>Guid</c>, <c>int</c> or <c>long</c> id left at its
/// default value is generated on insert (int and long from a transactional sequence that never
/// hands out a committed value twice).
/// </summary>
public sealed partial class DocumentCollection<TId, T> : TypedCollection
    where T : class
{
    private readonly DocumentDbContext _context;
    private readonly IReadOnlyList<IndexDeclaration> _indexes;
    private readonly IReadOnlyList<VectorIndexDeclaration> _vectorIndexes;
    private readonly IdPolicy<TId> _ids;
    private readonly MapperFieldPathResolver<TId, T> _fieldPaths;
    private TypedQuerySource<TId, T>? _querySource;
    private IQueryable<T>? _query;
    private RawCollection? _documents;
    private HashSet<string>? _singleValuedPaths;
    private Providers.ICollectionStore<TId, T>? _store;
    private readonly Core.ChangeFeed.ChangeFeedMode _changeFeed;

    // Held per collection rather than in the compiler's static lambda caches: those belong to a
    // generic class shared by every reference type, and each FindById paid a runtime lookup of
    // their statics to reach them.
    private readonly Func<Core.Storage.IPageReader, (DocumentCollection<TId, T> Collection, TId Id), T?> _findById =
        static (pages, s) => s.Collection.FindByIdCore(pages, s.Id);
    private readonly Func<ReadOnlySpan<byte>, DocumentCollection<TId, T>, T> _deserialize = static (bytes, collection) => collection.Deserialize(bytes);

    internal DocumentCollection(DocumentDbContext context, string name, IDocumentMapper<TId, T> mapper, IReadOnlyList<IndexDeclaration> indexes, IdConverter<TId>? idConverter, IReadOnlyList<VectorIndexDeclaration>? vectorIndexes = null, Core.ChangeFeed.ChangeFeedMode changeFeed = Core.ChangeFeed.ChangeFeedMode.Off)
    {
        _changeFeed = changeFeed;
        _vectorIndexes = vectorIndexes ?? [];
        ArgumentException.ThrowIfNullOrEmpty(name);
        _context = context;
        Name = name;
        Mapper = mapper;
        _indexes = indexes;
        _ids = new IdPolicy<TId>(idConverter);
        _fieldPaths = new MapperFieldPathResolver<TId, T>(mapper, idConverter);
    }

    public override string Name { get; }

    public IDocumentMapper<TId, T> Mapper { get; }

    internal override Type DocumentType => typeof(T);

    internal override Type IdType => typeof(TId);

    /// <summary>The raw-bytes collection underneath.</summary>
    internal RawCollection Documents
    {
        get
        {
            // Encrypting or decrypting reopens the context's engine; a handle of the closed one is replaced.
            var engine = _context.Engine;
            var documents = _documents;
            return documents is not null && ReferenceEquals(documents.Database, engine) ? documents : _documents = engine.GetRawCollection(Name);
        }
    }

    internal DocumentDbContext Context => _context;

    internal IFieldPathResolver FieldPaths => _fieldPaths;

    private TypedQuerySource<TId, T> QuerySource => _querySource ??= new TypedQuerySource<TId, T>(this);

    internal QueryPlanCache Plans => QuerySource.Plans;

    internal int IndexDistinctWalks => QuerySource.DistinctWalks;

    /// <summary>
    /// A LINQ query over the collection. Where, OrderBy, Skip and Take run in the engine with
    /// index selection; an expression it cannot translate throws <see cref="NotSupportedException"/>
    /// (there is no silent in-memory fallback). <c>query.Explain()</c> shows the plan.
    /// </summary>
    /// <remarks>
    /// The query root is created once per collection, so every query built from it shares one
    /// provider: each shape is translated once and planned once (until the indexes change).
    /// </remarks>
    public IQueryable<T> Query() => _query ??= BLiteQuery.Create(DocumentSource);

    /// <summary>The id rules of this collection (generation, sequences, conversion), shared with server stores.</summary>
    internal IdPolicy<TId> Ids => _ids;

    internal override void Attach(Providers.IDocumentStore store) => _store = store.Collection(this);

    /// <summary>What this collection's queries run on: the server store's source, or the embedded engine's.</summary>
    internal IDocumentQuerySource<T> DocumentSource => _store?.QuerySource ?? QuerySource;

    internal override CollectionDefinition Definition()
    {
        var indexes = new List<IndexDefinition>(_indexes.Count);
        foreach (var (name, fieldPaths, unique) in DeclaredIndexes())
        {
            indexes.Add(new IndexDefinition(name, fieldPaths, unique));
        }

        var vectorIndexes = new List<Core.Vectors.VectorIndexDefinition>(_vectorIndexes.Count);
        foreach (var declaration in _vectorIndexes)
        {
            var fieldPath = ResolveFieldPath(declaration.MemberPath);
            vectorIndexes.Add(new Core.Vectors.VectorIndexDefinition(declaration.Name ?? "vx_" + fieldPath.Replace('.', '_'), fieldPath,
                declaration.Dimensions, declaration.Metric, declaration.M, declaration.EfConstruction));
        }

        return new CollectionDefinition(Name, indexes, vectorIndexes, _changeFeed);
    }

    /// <summary>The declared indexes with their names and stored field paths, for the engine's schema and for server stores.</summary>
    internal List<(string Name, string[] FieldPaths, bool Unique)> DeclaredIndexes()
    {
        var indexes = new List<(string, string[], bool)>(_indexes.Count);
        foreach (var declaration in _indexes)
        {
            var fieldPaths = new string[declaration.MemberPaths.Count];
            for (var i = 0; i < fieldPaths.Length; i++)
            {
                fieldPaths[i] = ResolveFieldPath(declaration.MemberPaths[i]);
            }

            indexes.Add((declaration.Name ?? IndexKeyPaths.DefaultIndexName(fieldPaths), fieldPaths, declaration.Unique));
        }

        return indexes;
    }

    private string ResolveFieldPath(string memberPath)
    {
        if (!Mapper.TryGetField(memberPath, out var field))
        {
            throw new InvalidOperationException($"Cannot index '{typeof(T).Name}.{memberPath}' in collection '{Name}': the member is not stored (ignored, computed, or not a mapped path).");
        }

        return field.FieldPath;
    }

    /// <summary>
    /// Whether a stored field path is single-valued in this model (no array on the way), so an
    /// index over it can be planned without de-duplication. Unknown paths count as multi-valued.
    /// </summary>
    internal bool IsSingleValuedPath(string fieldPath) =>
        (_singleValuedPaths ??= BuildSingleValuedPaths()).Contains(fieldPath);

    private HashSet<string> BuildSingleValuedPaths()
    {
        var paths = new HashSet<string>(StringComparer.Ordinal);
        foreach (var field in Mapper.Fields)
        {
            if (!field.IsMultiValued && field.BsonType != BsonType.Array)
            {
                paths.Add(field.FieldPath);
            }
        }

        return paths;
    }

    /// <summary>
    /// A stored document as <typeparamref name="T"/>. Its short strings come from the thread's
    /// <see cref="BsonStringTable"/>, so a value repeated across the documents the thread reads (a
    /// status, a name, a tag) is one instance: a large result keeps (and the collector copies) far
    /// fewer objects, and a read by id allocates less. A value seen for the first time costs a
    /// hash and a slot write more than decoding it alone (about 3.5 ns).
    /// </summary>
    internal T Deserialize(ReadOnlySpan<byte> document)
    {
        var reader = new BsonSpanReader(document, BsonStringTable.ForCurrentThread);
        return Mapper.Deserialize(ref reader);
    }

    /// <summary>The encoded primary key of an id, held by value (no array for native ids) so reads and deletes by id allocate nothing for it.</summary>
    internal PrimaryKeyBytes LookupKey(TId id) => _ids.EncodeKeyBytes(id);

    /// <summary>
    /// The document with this id as <paramref name="pages"/> sees it. The key is encoded here, inside
    /// the read, rather than carried in its state: an inline key is 80 bytes, and a state holding it
    /// was zeroed and copied at every layer between the call and the read.
    /// </summary>
    internal T? FindByIdCore(Core.Storage.IPageReader pages, TId id)
    {
        var key = LookupKey(id);
        return FindByIdCore(pages, key.Span);
    }

    internal T? FindByIdCore(Core.Storage.IPageReader pages, ReadOnlySpan<byte> key) =>
        Documents.TryReadById(pages, key, this, _deserialize, out var document) ? document : null;
}
