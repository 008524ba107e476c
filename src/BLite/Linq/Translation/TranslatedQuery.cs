using System.Linq.Expressions;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq.Execution;

namespace BLite.Linq.Translation;

internal enum QueryTerminal
{
    Sequence,
    First,
    FirstOrDefault,
    Single,
    SingleOrDefault,
    Any,
    All,
    Count,
    LongCount,
    Min,
    Max,
    Sum,
    Average,
    Last,
    LastOrDefault,
    ElementAt,
    ElementAtOrDefault,
}

/// <summary>How the value of one lifted parameter reaches the engine.</summary>
internal enum ParameterUse
{
    /// <summary>Only the in-memory projection reads it (or nothing does).</summary>
    None,

    Scalar,

    /// <summary>An IN list: converted to a BSON array.</summary>
    List,
}

internal enum PostOperationKind
{
    Select,
    GroupBy,
    Distinct,
    SelectMany,
    Skip,
    Take,

    /// <summary>Resolves the references the lambda reaches, batch by batch, on documents (before any Select).</summary>
    Include,
}

/// <summary>A step run in memory on what the source returned: projections, grouping, and paging after grouping.</summary>
internal sealed record PostOperation(PostOperationKind Kind, LambdaExpression? Lambda, LimitStep? Limit)
{
    /// <summary>For <see cref="PostOperationKind.Include"/>: what a dangling reference does.</summary>
    public MissingReference Missing { get; init; }

    /// <summary>For <see cref="PostOperationKind.SelectMany"/> with a result selector: <c>(row, item) => result</c>.</summary>
    public LambdaExpression? ResultSelector { get; init; }
}

/// <summary>
/// The pushed-down form of a query's first in-memory step: the stored fields and computed values
/// it reads (one slot each, converted to <see cref="Types"/>), and the operations and terminal selector rewritten
/// to read those slots from a row instead of a document.
/// </summary>
internal sealed record ProjectionPlan(IReadOnlyList<ValueExpression> Values, IReadOnlyList<Type> Types, IReadOnlyList<PostOperation> PostOperations,
    LambdaExpression? TerminalSelector)
{
    /// <summary>How errors name each value (<c>customer.city</c>, <c>$sum($lines, $qty)</c>), described once rather than per row.</summary>
    public IReadOnlyList<string> Names { get; } = Values.Select(FieldProjection.Describe).ToArray();
}

/// <summary>A Skip or Take on the source, by parameter slot or by a constant the translator added (First → Take 1).</summary>
internal sealed record LimitStep(bool IsSkip, int ParameterIndex, long Constant)
{
    public long Resolve(object?[] values) => ParameterIndex < 0 ? Constant : Convert.ToInt64(values[ParameterIndex], System.Globalization.CultureInfo.InvariantCulture);
}

/// <summary>
/// The cached translation of one query shape: the engine query (with parameter slots), how to
/// turn this execution's lifted values into slot values, and what runs in memory afterwards.
/// </summary>
internal sealed class TranslatedQuery
{
    public required DocumentQuery Query { get; init; }

    public required ParameterUse[] ParameterUses { get; init; }

    public required IReadOnlyList<LimitStep> Limits { get; init; }

    public required IReadOnlyList<PostOperation> PostOperations { get; init; }

    public required QueryTerminal Terminal { get; init; }

    /// <summary>The selector of Min/Max/Sum/Average, if given.</summary>
    public LambdaExpression? TerminalSelector { get; init; }

    /// <summary>The lifted value holding ElementAt's index; -1 for other terminals.</summary>
    public int ElementIndexSlot { get; init; } = -1;

    /// <summary>Set when the first in-memory step reads only stored scalar fields (see <see cref="ProjectionPlan"/>).</summary>
    public ProjectionPlan? Projection { get; init; }

    private System.Runtime.CompilerServices.StrongBox<SourceGrouping?>? _grouping;

    /// <summary>The grouping a grouping source runs for this shape (<see cref="SourceGrouping.Create"/>), worked out on first use.</summary>
    public SourceGrouping? Grouping => (_grouping ??= new(SourceGrouping.Create(this))).Value;

    /// <summary>The element type the terminal aggregates over (selector result or element type).</summary>
    public required Type AggregateValueType { get; init; }

    /// <summary>A NearestTo search replacing the engine's scan (the filter still applies), or null.</summary>
    public VectorStage? Vector { get; init; }

    /// <summary>Rows are <c>VectorMatch&lt;T&gt;</c> rather than documents.</summary>
    public bool WithDistance { get; init; }

    /// <summary>Slot numbers of the resolved skip and take (after the lifted values).</summary>
    public int SkipSlot => ParameterUses.Length;

    public int TakeSlot => ParameterUses.Length + 1;

    /// <summary>The slot values for one execution; unused lifted values stay null.</summary>
    public BsonValue[] Bind(object?[] values, IQueryValueConverter? converter = null)
    {
        var slots = new BsonValue[ParameterUses.Length + 2];
        for (var i = 0; i < ParameterUses.Length; i++)
        {
            slots[i] = ParameterUses[i] switch
            {
                ParameterUse.Scalar => ClrBsonConverter.ToBsonValue(values[i], converter),
                ParameterUse.List => ClrBsonConverter.ToBsonArray(values[i], converter),
                _ => BsonValue.Null,
            };
        }

        var (skip, take) = ResolveLimits(values);
        slots[SkipSlot] = skip;
        slots[TakeSlot] = take;
        return slots;
    }

    /// <summary>Skip and Take in any order and number, folded into one skip and one take with LINQ's rules (negative counts act as 0).</summary>
    public (long Skip, long Take) ResolveLimits(object?[] values)
    {
        long skip = 0;
        var take = long.MaxValue;
        foreach (var step in Limits)
        {
            var count = Math.Max(0, step.Resolve(values));
            if (step.IsSkip)
            {
                skip = skip > long.MaxValue - count ? long.MaxValue : skip + count;
                take = take == long.MaxValue ? take : Math.Max(0, take - count);
            }
            else
            {
                take = Math.Min(take, count);
            }
        }

        return (skip, take);
    }
}
