using System.Runtime.CompilerServices;
using System.Linq.Expressions;
using System.Text;
using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Linq.Translation;

namespace BLite.Query;

/// <summary>Which row slot each argument of a typed projection reads, and with which member reader.</summary>
internal sealed class TypedProjectionArguments(int[] slots, MemberReader[] readers, string[] memberPaths)
{
    public int[] Slots { get; } = slots;

    public MemberReader[] Readers { get; } = readers;

    public InvalidOperationException NullOrMissing(int argument) =>
        new($"The stored field '{memberPaths[argument]}' is null or missing, so it cannot be read as {Readers[argument].ValueType.Name}.");
}

/// <summary>
/// A prepared projection whose selector only hands stored members, at their declared types, to a
/// constructor and to initialized members, and whose shape the source generator has registered a
/// typed constructor for (<see cref="ProjectionConstructors"/>): each read locates the members in
/// one pass, on the stack, and calls that constructor, which decodes each argument at its own type.
/// The result is the only allocation. Shapes the generator did not see (anonymous types, selectors
/// built at run time, another assembly without the generator) keep the row path.
/// </summary>
internal sealed class TypedProjection<TResult>
{
    private const int MaxStackSlots = 64;

    private readonly ProjectedRowReader _locator;
    private readonly TypedProjectionArguments _arguments;
    private readonly ProjectionConstructor<TResult> _construct;

    // The field id of each argument when every argument is a different top-level member (the
    // usual projection): the walk then writes each location straight into its argument's place.
    private readonly ushort[]? _argumentFieldIds;

    private TypedProjection(ProjectedRowReader locator, TypedProjectionArguments arguments, ProjectionConstructor<TResult> construct)
    {
        _locator = locator;
        _arguments = arguments;
        _construct = construct;
        _argumentFieldIds = TopLevelFieldIds(locator, arguments.Slots);
    }

    private static ushort[]? TopLevelFieldIds(ProjectedRowReader locator, int[] slots)
    {
        var ids = new ushort[slots.Length];
        for (var argument = 0; argument < slots.Length; argument++)
        {
            if (locator.TopLevelFieldIdAt(slots[argument]) is not { } id || ids.AsSpan(0, argument).Contains(id))
            {
                return null;
            }

            ids[argument] = id;
        }

        return ids;
    }

    /// <summary>The typed projection of <paramref name="selector"/> (its translated form, members replaced by row slots), or null when it has none.</summary>
    public static TypedProjection<TResult>? TryCreate<TDocument>(ProjectedRowReader? locator, LambdaExpression selector)
    {
        if (locator is null || !locator.ReadsOnlyMembers || locator.Width > MaxStackSlots || selector.Body.Type != typeof(TResult))
        {
            return null;
        }

        var (construction, bindings) = selector.Body switch
        {
            NewExpression plain => (plain, (IReadOnlyList<MemberBinding>)[]),
            MemberInitExpression initialized => (initialized.NewExpression, initialized.Bindings),
            _ => (null, []),
        };
        if (construction is null || construction.Members is not null)
        {
            return null;
        }

        var parameters = construction.Constructor?.GetParameters() ?? [];
        var slots = new List<int>();
        var readers = new List<MemberReader>();
        var paths = new List<string>();
        var shape = new StringBuilder("new(");
        for (var i = 0; i < construction.Arguments.Count; i++)
        {
            if (parameters[i].ParameterType != construction.Arguments[i].Type || !TryAdd(locator, construction.Arguments[i], slots, readers, paths))
            {
                return null;
            }

            shape.Append(i == 0 ? "" : ",").Append(paths[^1]);
        }

        shape.Append(')');
        if (bindings.Count > 0)
        {
            shape.Append('{');
            for (var i = 0; i < bindings.Count; i++)
            {
                if (bindings[i] is not MemberAssignment assignment || !TryAdd(locator, assignment.Expression, slots, readers, paths))
                {
                    return null;
                }

                shape.Append(i == 0 ? "" : ",").Append(assignment.Member.Name).Append('=').Append(paths[^1]);
            }

            shape.Append('}');
        }

        // The same key the generator registers (ProjectionConstructors.Register).
        return slots.Count <= MaxStackSlots && ProjectionConstructors.Find<TDocument, TResult>(shape.ToString()) is { } construct
            ? new TypedProjection<TResult>(locator, new TypedProjectionArguments(slots.ToArray(), readers.ToArray(), paths.ToArray()), construct)
            : null;
    }

    private static bool TryAdd(ProjectedRowReader locator, Expression argument, List<int> slots, List<MemberReader> readers, List<string> paths)
    {
        if (argument is not ProjectedFieldExpression field || locator.MemberAt(field.Slot) is not var (reader, path) || reader.ValueType != field.Type)
        {
            return false;
        }

        slots.Add(field.Slot);
        readers.Add(reader);
        paths.Add(path);
        return true;
    }

    /// <summary>The result for one raw document.</summary>
    public TResult Read(ReadOnlySpan<byte> document)
    {
        // Exactly one slot per argument: a fixed 64-slot buffer would be zeroed on every lookup.
        var count = _arguments.Slots.Length;
        Span<int> offsets = stackalloc int[count];
        Span<BsonType> types = stackalloc BsonType[count];
        if (_argumentFieldIds is { } fieldIds)
        {
            BsonSpanReader.LocateFields(document, fieldIds, offsets, types);
        }
        else
        {
            LocateThroughSlots(document, offsets, types);
        }

        var row = new ProjectedRow(document, offsets, types, _arguments);
        return _construct(ref row);
    }

    /// <summary>Nested or repeated members: the row's locations, then each argument's copied from its slot.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void LocateThroughSlots(ReadOnlySpan<byte> document, Span<int> offsets, Span<BsonType> types)
    {
        Span<int> slotOffsets = stackalloc int[_locator.Width];
        Span<BsonType> slotTypes = stackalloc BsonType[_locator.Width];
        _locator.Locate(document, slotOffsets, slotTypes);
        var slots = _arguments.Slots;
        for (var argument = 0; argument < slots.Length; argument++)
        {
            offsets[argument] = slotOffsets[slots[argument]];
            types[argument] = slotTypes[slots[argument]];
        }
    }
}
