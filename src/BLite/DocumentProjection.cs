using System.Linq.Expressions;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Core.Storage;
using BLite.Linq.Execution;
using BLite.Linq.Translation;
using BLite.Query;

namespace BLite;

/// <summary>
/// A projection prepared once (<see cref="DocumentCollection{TId, T}.Project{TResult}"/>) and run
/// by id many times: each lookup descends the primary index, reads only the projected fields from
/// the raw bytes and builds the result from them; the document is never materialized and the
/// selector is never translated again.
/// </summary>
public sealed class DocumentProjection<TId, T, TResult>
    where T : class
{
    private readonly DocumentCollection<TId, T> _collection;
    private readonly ProjectionPlan _plan;
    private readonly LambdaExpression _selector;
    private readonly object?[] _values;
    private readonly BsonValue[] _parameters;
    private FieldProjection? _reader;
    private readonly ProjectedRowReader? _rowReader;
    private readonly RowConstructor? _constructor;
    private readonly TypedProjection<TResult>? _typed;

    // Held per projection rather than in the compiler's static lambda caches: those belong to a
    // generic class shared by every reference type, and each lookup paid a runtime lookup of
    // their statics to reach them.
    private readonly Func<IPageReader, (DocumentProjection<TId, T, TResult> Projection, TId Id), (bool Hit, TResult Result)> _lookup;
    private readonly Func<ReadOnlySpan<byte>, TypedProjection<TResult>, TResult> _build;

    internal DocumentProjection(DocumentCollection<TId, T> collection, Expression<Func<T, TResult>> selector)
    {
        _collection = collection;
        _plan = QueryTranslator.TranslateProjection(selector, collection.FieldPaths, out _values, out _parameters, out var blocker)
            ?? throw new NotSupportedException($"The projection '{selector}' cannot be read from stored fields: {blocker}. Use Query().Select(...) instead.");
        _selector = _plan.PostOperations[0].Lambda!;
        _rowReader = ProjectedRowReader.TryCreate(collection.Mapper, _plan.Values, _plan.Types, _plan.Names, collection.Documents.Database.Fields, _parameters);
        _typed = TypedProjection<TResult>.TryCreate<T>(_rowReader, _selector);
        _constructor = _typed is null ? RowConstructor.Of(_selector, _plan.Types) : null;
        _lookup = static (pages, s) => s.Projection.ReadTyped(pages, s.Id);
        _build = static (bytes, typed) => typed.Read(bytes);
    }

    /// <summary>
    /// True when each lookup builds its result with a constructor the source generator emitted for
    /// this shape (no row, no boxing, no reflection; docs/query.md "Typed projections").
    /// </summary>
    public bool IsTyped => _typed is not null;

    /// <summary>The stored fields (and values computed from one) each lookup reads.</summary>
    public IReadOnlyList<ValueExpression> Fields => _plan.Values;

    /// <summary>The projected document with this id; false when there is none.</summary>
    public bool TryFindById(TId id, out TResult result)
    {
        if (_typed is not null)
        {
            (var hit, result) = _collection.Context.Read((Projection: this, Id: id), _lookup);
            return hit;
        }

        var found = _collection.Context.Read((Projection: this, Id: id), static (pages, s) =>
        {
            var key = s.Projection._collection.LookupKey(s.Id);
            return s.Projection._collection.Documents.TryReadById(pages, key.Span, s.Projection,
                static (bytes, projection) => projection.ReadRow(bytes), out var row) ? row : null;
        });
        result = found is null ? default! : Build(found);
        return found is not null;
    }

    // The id, not its encoded key, travels in the read's state (see DocumentCollection.FindByIdCore).
    private (bool Hit, TResult Result) ReadTyped(IPageReader pages, TId id)
    {
        var key = _collection.LookupKey(id);
        var hit = _collection.Documents.TryReadById(pages, key.Span, _typed!, _build, out var built);
        return (hit, built);
    }

    private TResult Build(object?[] row) =>
        (TResult)(_constructor is { } constructor ? constructor.Invoke(row) : ExpressionInterpreter.Invoke(_selector, row, _values))!;

    /// <summary>What a lookup builds from one stored document's bytes, by the same path (typed or row).</summary>
    internal TResult Project(ReadOnlySpan<byte> document) => _typed is { } typed ? typed.Read(document) : Build(ReadRow(document));

    /// <summary>The projected document with this id, or the default of <typeparamref name="TResult"/> (null for classes and anonymous types).</summary>
    public TResult? FindById(TId id) => TryFindById(id, out var result) ? result : default;

    private object?[] ReadRow(ReadOnlySpan<byte> document)
    {
        if (_rowReader is { } typed)
        {
            return typed.Read(document);
        }

        var reader = _reader ??= new FieldProjection(_plan.Values, _collection.Documents.Database.Fields, _parameters);
        var row = new object?[_plan.Values.Count];
        for (var i = 0; i < row.Length; i++)
        {
            row[i] = BsonClrConverter.ToClr(reader.ReadValue(document, i), _plan.Types[i], _plan.Names[i]);
        }

        return row;
    }
}
