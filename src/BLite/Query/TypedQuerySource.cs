using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core.Diagnostics;
using BLite.Core.Query;
using BLite.Linq;

namespace BLite.Query;

/// <summary>
/// Runs translated LINQ queries for a typed collection. Outside a transaction results stream
/// from one read snapshot held open while enumerating; inside one they are read up front under the
/// transaction (so the caller may write while looping over them).
/// </summary>
internal sealed partial class TypedQuerySource<TId, T> : IDocumentQuerySource<T>, IProjectingQuerySource, IVectorQuerySource<T>, IReferenceResolvingSource, IRowProjectingSource
    where T : class
{
    private readonly DocumentCollection<TId, T> _collection;

    private readonly QueryPlanCache _plans;
    private readonly ConditionalWeakTable<IReadOnlyList<ValueExpression>, FieldProjection> _projections = new();
    private readonly ConditionalWeakTable<IReadOnlyList<ValueExpression>, FieldProjection>.CreateValueCallback _createProjection;
    private readonly ConditionalWeakTable<Linq.Translation.ProjectionPlan, RowReaderHolder> _rowReaders = new();
    private readonly ConditionalWeakTable<Linq.Translation.ProjectionPlan, ValueReaderHolder> _valueReaders = new();

    public TypedQuerySource(DocumentCollection<TId, T> collection)
    {
        _collection = collection;
        _plans = new QueryPlanCache(collection.IsSingleValuedPath);
        _createProjection = values => new FieldProjection(values, collection.Documents.Database.Fields);
    }

    internal QueryPlanCache Plans => _plans;

    public IFieldPathResolver FieldPaths => _collection.FieldPaths;

    public DocumentDbContext Context => _collection.Context;

    public IEnumerable<T> Execute(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var context = _collection.Context;
        if (context.CurrentTransaction is { } transaction)
        {
            var started = BLiteTelemetry.StartOperation();
            var rows = transaction.Run((Source: this, Query: query, Parameters: parameters),
                static (pages, s) => s.Source.Materialize(pages, s.Query, s.Parameters));
            Measured(started, "query");
            return rows;
        }

        return Stream(query, parameters);
    }

    public async IAsyncEnumerable<T> ExecuteAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var context = _collection.Context;
        if (context.CurrentTransaction is { } transaction)
        {
            var started = BLiteTelemetry.StartOperation();
            var rows = await transaction.RunAsync((Source: this, Query: query, Parameters: parameters),
                static (pages, s) => s.Source.Materialize(pages, s.Query, s.Parameters), cancellationToken).ConfigureAwait(false);
            Measured(started, "query");
            foreach (var row in rows)
            {
                yield return row;
            }

            yield break;
        }

        foreach (var row in Stream(query, parameters))
        {
            cancellationToken.ThrowIfCancellationRequested();
            yield return row;
        }
    }

    public long Count(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var started = BLiteTelemetry.StartOperation();
        var count = _collection.Context.Read((Collection: _collection, Query: query, Parameters: parameters, Source: this),
            static (pages, s) => CollectionQuerySource.Count(s.Collection.Documents, pages, s.Query, s.Parameters, s.Source.Plans));
        Measured(started, "count");
        return count;
    }

    private void Measured(long startedTimestamp, string operation)
    {
        if (startedTimestamp != 0)
        {
            BLiteTelemetry.EndOperation(startedTimestamp, _collection.Documents, operation);
        }
    }

    public ValueTask<long> CountAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken)
    {
        var started = BLiteTelemetry.StartOperation();
        var count = _collection.Context.ReadAsync((Collection: _collection, Query: query, Parameters: parameters, Source: this),
            static (pages, s) => CollectionQuerySource.Count(s.Collection.Documents, pages, s.Query, s.Parameters, s.Source.Plans), cancellationToken);
        return started == 0 ? new(count) : new(_collection.MeasuredAsync(count, started, "count"));
    }

    public string Explain(DocumentQuery query) =>
        _collection.Context.Read((Collection: _collection, Query: query, Source: this),
            static (pages, s) => CollectionQuerySource.Explain(s.Collection.Documents, pages, s.Query, s.Source.Plans));

    public IEnumerable<BsonValue[]> ExecuteFields(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values)
    {
        if (_collection.Context.CurrentTransaction is { } transaction)
        {
            var started = BLiteTelemetry.StartOperation();
            var rows = transaction.Run((Source: this, Query: query, Parameters: parameters, Values: values),
                static (pages, s) => s.Source.ReadFields(pages, s.Query, s.Parameters, s.Values).ToList());
            Measured(started, "query");
            return rows;
        }

        return StreamFields(query, parameters, values);
    }

    public async IAsyncEnumerable<BsonValue[]> ExecuteFieldsAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        if (_collection.Context.CurrentTransaction is { } transaction)
        {
            var started = BLiteTelemetry.StartOperation();
            var rows = await transaction.RunAsync((Source: this, Query: query, Parameters: parameters, Values: values),
                static (pages, s) => s.Source.ReadFields(pages, s.Query, s.Parameters, s.Values).ToList(), cancellationToken).ConfigureAwait(false);
            Measured(started, "query");
            foreach (var row in rows)
            {
                yield return row;
            }

            yield break;
        }

        foreach (var row in StreamFields(query, parameters, values))
        {
            cancellationToken.ThrowIfCancellationRequested();
            yield return row;
        }
    }

    public IEnumerable<object?> ExecuteIn(QuerySnapshot snapshot, DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        if (snapshot.Pages is not { } pages)
        {
            return Execute(query, parameters);
        }

        return Documents(pages, query, parameters);
    }

    public IEnumerable<BsonValue[]> ExecuteFieldsIn(QuerySnapshot snapshot, DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values) =>
        snapshot.Pages is { } pages ? ReadFields(pages, query, parameters, values) : ExecuteFields(query, parameters, values);

    private IEnumerable<object?> Documents(Core.Storage.IPageReader pages, DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        foreach (var document in CollectionQuerySource.Execute(_collection.Documents, pages, query, parameters, _plans))
        {
            yield return _collection.Deserialize(document.Span);
        }
    }

    private IEnumerable<BsonValue[]> StreamFields(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values) =>
        StreamFrom(pages => ReadFields(pages, query, parameters, values));

    /// <summary>Rows read from one snapshot held open while the caller enumerates, measured when the enumeration ends.</summary>
    private IEnumerable<TRow> StreamFrom<TRow>(Func<Core.Storage.IPageReader, IEnumerable<TRow>> read)
    {
        var started = BLiteTelemetry.StartOperation();
        try
        {
            using var snapshot = _collection.Context.Engine.BeginRead();
            foreach (var row in read(snapshot))
            {
                yield return row;
            }
        }
        finally
        {
            Measured(started, "query");
        }
    }

    public IEnumerable<object?[]>? ExecuteRows(DocumentQuery query, IReadOnlyList<BsonValue> parameters, Linq.Translation.ProjectionPlan projection)
    {
        var reader = FieldProjection.UsesParameters(projection.Values)
            ? CreateRowReader(projection, parameters)
            : _rowReaders.GetValue(projection, plan => new RowReaderHolder(CreateRowReader(plan, null))).Reader;
        if (reader is null)
        {
            return null;
        }

        if (_collection.Context.CurrentTransaction is { } transaction)
        {
            var started = BLiteTelemetry.StartOperation();
            var rows = transaction.Run((Source: this, Query: query, Parameters: parameters, Reader: reader, projection.Values),
                static (pages, s) => s.Source.ReadRows(pages, s.Query, s.Parameters, s.Reader, s.Values).ToList());
            Measured(started, "query");
            return rows;
        }

        return StreamFrom(pages => ReadRows(pages, query, parameters, reader, projection.Values));
    }

    private ProjectedRowReader? CreateRowReader(Linq.Translation.ProjectionPlan projection, IReadOnlyList<BsonValue>? parameters) =>
        ProjectedRowReader.TryCreate(_collection.Mapper, projection.Values, projection.Types, projection.Names, _collection.Documents.Database.Fields, parameters);

    private IEnumerable<object?[]> ReadRows(Core.Storage.IPageReader pages, DocumentQuery query, IReadOnlyList<BsonValue> parameters, ProjectedRowReader reader,
        IReadOnlyList<ValueExpression> values)
    {
        foreach (var document in CollectionQuerySource.ExecuteReading(_collection.Documents, pages, query, parameters, values, _plans))
        {
            yield return reader.Read(document.Span);
        }
    }

    /// <summary>A cached row reader, or the fact that the mapper has none.</summary>
    private sealed record RowReaderHolder(ProjectedRowReader? Reader);

    public IEnumerable<TValue>? ExecuteValues<TValue>(DocumentQuery query, IReadOnlyList<BsonValue> parameters, Linq.Translation.ProjectionPlan projection)
    {
        if (!_valueReaders.TryGetValue(projection, out var holder))
        {
            holder = new ValueReaderHolder(ProjectedValueReader<TValue>.TryCreate(_collection.Mapper, projection));
            _valueReaders.AddOrUpdate(projection, holder);
        }

        if (holder.Reader is not ProjectedValueReader<TValue> reader)
        {
            return null;
        }

        if (_collection.Context.CurrentTransaction is { } transaction)
        {
            var started = BLiteTelemetry.StartOperation();
            var values = transaction.Run((Source: this, Query: query, Parameters: parameters, Reader: reader, projection.Values),
                static (pages, s) => s.Source.ReadValues(pages, s.Query, s.Parameters, s.Reader, s.Values).ToList());
            Measured(started, "query");
            return values;
        }

        return StreamValues(query, parameters, reader, projection.Values);
    }

    private IEnumerable<TValue> ReadValues<TValue>(Core.Storage.IPageReader pages, DocumentQuery query, IReadOnlyList<BsonValue> parameters,
        ProjectedValueReader<TValue> reader, IReadOnlyList<ValueExpression> values)
    {
        foreach (var document in CollectionQuerySource.ExecuteReading(_collection.Documents, pages, query, parameters, values, _plans))
        {
            yield return reader.Read(document.Span);
        }
    }

    /// <summary>As <see cref="StreamFrom{TRow}"/> over <see cref="ReadValues{TValue}"/>, in one iterator.</summary>
    private IEnumerable<TValue> StreamValues<TValue>(DocumentQuery query, IReadOnlyList<BsonValue> parameters, ProjectedValueReader<TValue> reader,
        IReadOnlyList<ValueExpression> values)
    {
        var started = BLiteTelemetry.StartOperation();
        try
        {
            using var snapshot = _collection.Context.Engine.BeginRead();
            foreach (var document in CollectionQuerySource.ExecuteReading(_collection.Documents, snapshot, query, parameters, values, _plans))
            {
                yield return reader.Read(document.Span);
            }
        }
        finally
        {
            Measured(started, "query");
        }
    }

    /// <summary>
    /// A cached single-value reader (a <see cref="ProjectedValueReader{TValue}"/> of the value type
    /// first asked for), or the fact that there is none for that type.
    /// </summary>
    private sealed record ValueReaderHolder(object? Reader);

    private IEnumerable<BsonValue[]> ReadFields(Core.Storage.IPageReader pages, DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values)
    {
        var projection = FieldProjection.UsesParameters(values)
            ? new FieldProjection(values, _collection.Documents.Database.Fields, parameters)
            : Projection(values);
        foreach (var document in CollectionQuerySource.ExecuteReading(_collection.Documents, pages, query, parameters, values, _plans))
        {
            var row = new BsonValue[values.Count];
            projection.Read(document.Span, row);
            yield return row;
        }
    }

    /// <summary>
    /// The reader of a cached projection shape, built once: its paths resolve names the dictionary
    /// did not have yet on a later read (<see cref="CompiledPath"/>), and it keeps no per-read state.
    /// </summary>
    private FieldProjection Projection(IReadOnlyList<ValueExpression> values) =>
        _projections.GetValue(values, _createProjection);

    private List<T> Materialize(Core.Storage.IPageReader pages, DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var rows = new List<T>();
        foreach (var document in CollectionQuerySource.Execute(_collection.Documents, pages, query, parameters, _plans))
        {
            rows.Add(_collection.Deserialize(document.Span));
        }

        return rows;
    }

    private IEnumerable<T> Stream(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        // Measured when the enumeration completes or is disposed (the finally runs either way).
        var started = BLiteTelemetry.StartOperation();
        try
        {
            using var read = _collection.Context.Engine.BeginRead();
            foreach (var document in CollectionQuerySource.Execute(_collection.Documents, read, query, parameters, _plans))
            {
                yield return _collection.Deserialize(document.Span);
            }
        }
        finally
        {
            Measured(started, "query");
        }
    }
}
