using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Storage;
using BLite.Query;

namespace BLite;

/// <summary>
/// A schemaless collection of <see cref="BsonDocument"/>s, from
/// <see cref="DatabaseFacade.GetCollection"/>. Same transaction rules as the typed
/// collections; queries are MongoDB-style JSON filters (<c>{ "status": "shipped", "total": { "$gt": 100 } }</c>)
/// planned with the same planner. A document inserted without <c>_id</c> gets a new ObjectId.
/// On a server provider (<c>UsePostgreSql</c>) the documents, filters and transactions behave
/// the same; the operations that belong to the embedded engine (indexes, vector search, change
/// feed) throw <see cref="NotSupportedException"/> naming the operation there.
/// </summary>
public sealed partial class BsonDocumentCollection
{
    private readonly DocumentDbContext _context;
    private readonly Providers.ISchemalessStore? _server;
    private TransactionalBsonCollection? _embedded;

    internal BsonDocumentCollection(DocumentDbContext context, TransactionalBsonCollection collection)
    {
        _context = context;
        _embedded = collection;
        Name = collection.Name;
    }

    internal BsonDocumentCollection(DocumentDbContext context, string name, Providers.ISchemalessStore store)
    {
        _context = context;
        _server = store;
        Name = name;
    }

    public string Name { get; }

    /// <summary>The engine's handle; encrypting or decrypting reopens the context's engine, and a handle of the closed one is replaced.</summary>
    internal TransactionalBsonCollection Collection
    {
        get
        {
            var embedded = _embedded ?? throw NotOnServer("this operation");
            var engine = _context.Engine;
            return ReferenceEquals(embedded.Documents.Database, engine) ? embedded : _embedded = engine.GetCollection(Name);
        }
    }

    private BsonFieldDictionary Fields => _context.FieldDictionary;

    /// <summary>Inserts the document and returns its <c>_id</c> (generated and set on the document when missing).</summary>
    public BsonValue Insert(BsonDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_server is { } server)
        {
            var (id, key) = AssignId(document);
            return server.Insert(key, document) ? id : throw DuplicateId(key);
        }

        return _context.Write((Collection, document), static (pages, s) => s.Collection.Insert(pages, s.document));
    }

    /// <summary>Inserts all documents atomically; returns how many.</summary>
    public int InsertMany(IEnumerable<BsonDocument> documents)
    {
        ArgumentNullException.ThrowIfNull(documents);
        if (_server is not null)
        {
            return InsertAllOnServer(documents);
        }

        return _context.Write((Collection, documents), static (pages, s) =>
        {
            var count = 0;
            foreach (var document in s.documents)
            {
                ArgumentNullException.ThrowIfNull(document, nameof(documents));
                s.Collection.Insert(pages, document);
                count++;
            }

            return count;
        });
    }

    public bool Update(BsonDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_server is { } server)
        {
            return server.Update(KeyOf(document), document);
        }

        return _context.Write((Collection, document), static (pages, s) => s.Collection.Update(pages, s.document));
    }

    /// <summary>Inserts or replaces by <c>_id</c>; true when the document was new.</summary>
    public bool Upsert(BsonDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_server is { } server)
        {
            if (!document.ContainsKey(BsonFieldDictionary.IdFieldName))
            {
                Insert(document);
                return true;
            }

            return server.Upsert(KeyOf(document), document);
        }

        return _context.Write((Collection, document), static (pages, s) => s.Collection.Upsert(pages, s.document));
    }

    public bool Delete(BsonValue id) => _server is { } server
        ? server.Delete(IndexKeys.EncodeId(id))
        : _context.Write((Collection, id), static (pages, s) => s.Collection.Delete(pages, s.id));

    /// <summary>Removes every document matching the JSON filter atomically; returns how many.</summary>
    public int DeleteMany(string jsonFilter)
    {
        var query = Parse(jsonFilter);
        return _server is { } server
            ? server.DeleteMany(query)
            : _context.Write((Collection, query), static (pages, s) => DeleteMatching(pages, s.Collection, s.query));
    }

    public BsonDocument? FindById(BsonValue id) => _server is { } server
        ? server.FindById(IndexKeys.EncodeId(id))
        : _context.Read((Collection, id), static (pages, s) => s.Collection.FindById(pages, s.id));

    /// <summary>
    /// Documents matching a MongoDB-style JSON filter, in the order of the scanned index (<c>_id</c>
    /// order for a full scan). Outside a transaction they stream from one snapshot; inside one
    /// they are read up front.
    /// </summary>
    public IEnumerable<BsonDocument> Find(string jsonFilter) => Run(Parse(jsonFilter));

    /// <summary>Like <see cref="Find(string)"/>, with an engine-level query (filter, sort, skip, take).</summary>
    public IEnumerable<BsonDocument> Find(DocumentQuery query)
    {
        ArgumentNullException.ThrowIfNull(query);
        return Run(query);
    }

    public BsonDocument? FindOne(string jsonFilter)
    {
        var query = Parse(jsonFilter);
        return Run(new DocumentQuery(query.Filter, take: FilterOperand.FromConstant(1))).FirstOrDefault();
    }

    public IEnumerable<BsonDocument> FindAll() => Run(new DocumentQuery());

    /// <summary>As LINQ's <c>Count</c>: throws <see cref="OverflowException"/> above <see cref="int.MaxValue"/>.</summary>
    public int Count() => checked((int)LongCount());

    public int Count(string jsonFilter) => checked((int)LongCount(jsonFilter));

    public long LongCount() => _server is { } server
        ? server.Count(new DocumentQuery())
        : _context.Read(Collection, static (pages, collection) => collection.Count(pages));

    public long LongCount(string jsonFilter)
    {
        var query = Parse(jsonFilter);
        return _server is { } server
            ? server.Count(query)
            : _context.Read((Collection, query), static (pages, s) => CollectionQuerySource.Count(s.Collection.Documents, pages, s.query, []));
    }

    public bool Exists(string jsonFilter) => FindOne(jsonFilter) is not null;

    /// <summary>The plan the filter would run with, as text.</summary>
    public string Explain(string jsonFilter)
    {
        var query = Parse(jsonFilter);
        return _server is { } server
            ? server.Explain(query)
            : _context.Read((Collection, query), static (pages, s) => CollectionQuerySource.Explain(s.Collection.Documents, pages, s.query));
    }

    /// <summary>Creates a secondary index (built over existing documents); false when it exists already.</summary>
    public bool EnsureIndex(string indexName, string fieldPath, bool unique = false) =>
        EnsureIndex(new IndexDefinition(indexName, fieldPath, unique));

    public bool EnsureIndex(IndexDefinition definition)
    {
        ArgumentNullException.ThrowIfNull(definition);
        if (_server is { } server)
        {
            return server.EnsureIndex(definition);
        }

        return _context.Write((Collection, definition), static (pages, s) => s.Collection.EnsureIndex(pages, s.definition));
    }

    public bool DropIndex(string indexName)
    {
        ArgumentException.ThrowIfNullOrEmpty(indexName);
        if (_server is { } server)
        {
            return server.DropIndex(indexName);
        }

        return _context.Write((Collection, indexName), static (pages, s) => s.Collection.DropIndex(pages, s.indexName));
    }

    public IReadOnlyList<IndexDefinition> GetIndexes() => _server is { } server
        ? server.GetIndexes()
        : _context.Read(Collection, static (pages, collection) => collection.GetIndexes(pages));

    private static DocumentQuery Parse(string jsonFilter)
    {
        ArgumentNullException.ThrowIfNull(jsonFilter);
        return new DocumentQuery(JsonFilterParser.Parse(jsonFilter));
    }

    private IEnumerable<BsonDocument> Run(DocumentQuery query)
    {
        if (_server is { } server)
        {
            return server.Find(query);
        }

        if (_context.CurrentTransaction is { } transaction)
        {
            return transaction.Run((Collection: this, Query: query), static (pages, s) => s.Collection.Materialize(pages, s.Query));
        }

        return Stream(query);
    }

    private static int DeleteMatching(IPageWriter pages, TransactionalBsonCollection collection, DocumentQuery query)
    {
        // Keys are collected first: deleting while the scan's cursor walks the same trees would invalidate it.
        var keys = new List<byte[]>();
        foreach (var document in CollectionQuerySource.Execute(collection.Documents, pages, query, []))
        {
            keys.Add(collection.Documents.GetPrimaryKey(document.Span));
        }

        var deleted = 0;
        foreach (var key in keys)
        {
            deleted += collection.Documents.Delete(pages, key) ? 1 : 0;
        }

        return deleted;
    }

    private List<BsonDocument> Materialize(IPageReader pages, DocumentQuery query)
    {
        var documents = new List<BsonDocument>();
        foreach (var bytes in CollectionQuerySource.Execute(Collection.Documents, pages, query, []))
        {
            documents.Add(BsonDocument.FromBytes(bytes.Span, Fields));
        }

        return documents;
    }

    private IEnumerable<BsonDocument> Stream(DocumentQuery query)
    {
        using var read = _context.Engine.BeginRead();
        foreach (var bytes in CollectionQuerySource.Execute(Collection.Documents, read, query, []))
        {
            yield return BsonDocument.FromBytes(bytes.Span, Fields);
        }
    }
}
