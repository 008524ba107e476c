using System.Collections.Concurrent;
using System.Reflection;
using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Linq;

namespace BLite.Query;

/// <summary>
/// Resolves members to stored field names from the generated mapper's path table, not from
/// attributes: the stored name of a member is the last segment of its mapped field path. A type
/// is located in the table by the member path it was reached through, learned as the translator
/// resolves member chains from the document root outwards (<c>o.Customer</c> tells that
/// <c>CustomerContact</c> lives at <c>Customer</c>). Only member names and the member's declared
/// type are read from the expression tree.
/// </summary>
internal sealed class MapperFieldPathResolver<TId, T> : IFieldPathResolver, IQueryValueConverter
    where T : class
{
    private readonly Dictionary<string, MappedField> _byMemberPath = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<Type, string> _typePrefixes = new();
    private readonly IdConverter<TId>? _idConverter;

    public MapperFieldPathResolver(IDocumentMapper<TId, T> mapper, IdConverter<TId>? idConverter = null)
    {
        _idConverter = idConverter;
        foreach (var field in mapper.Fields)
        {
            _byMemberPath[field.MemberPath] = field;
        }

        _typePrefixes[typeof(T)] = string.Empty;
    }

    /// <summary>A custom id type compares by its stored key, so its == and != translate.</summary>
    public bool Converts(Type type) => _idConverter is not null && type == typeof(TId);

    public bool TryToStored(object value, out BsonValue stored)
    {
        if (_idConverter is not null && value is TId id)
        {
            stored = _idConverter.ToKey(id);
            return true;
        }

        stored = default;
        return false;
    }

    public bool TryGetFieldName(Type declaringType, MemberInfo member, out string fieldName)
    {
        ArgumentNullException.ThrowIfNull(declaringType);
        ArgumentNullException.ThrowIfNull(member);
        if (TryResolve(declaringType, member, out var memberPath, out fieldName)
            || (member.DeclaringType is { } declaring && declaring != declaringType && TryResolve(declaring, member, out memberPath, out fieldName)))
        {
            if (MemberType(member) is { } type)
            {
                _typePrefixes.TryAdd(ItemType(type), memberPath);
            }

            return true;
        }

        return TryResolveByName(member.Name, out fieldName);
    }

    private bool TryResolve(Type declaringType, MemberInfo member, out string memberPath, out string fieldName)
    {
        memberPath = string.Empty;
        fieldName = string.Empty;
        if (!_typePrefixes.TryGetValue(declaringType, out var prefix))
        {
            return false;
        }

        memberPath = prefix.Length == 0 ? member.Name : prefix + "." + member.Name;
        if (!_byMemberPath.TryGetValue(memberPath, out var field))
        {
            return false;
        }

        fieldName = LastSegment(field.FieldPath);
        return true;
    }

    /// <summary>
    /// For a type not reached from the root yet (a derived type, a lambda over items declared
    /// elsewhere): the member's stored name when every mapped path ending in it agrees.
    /// </summary>
    private bool TryResolveByName(string memberName, out string fieldName)
    {
        string? found = null;
        foreach (var (memberPath, field) in _byMemberPath)
        {
            if (!string.Equals(LastSegment(memberPath), memberName, StringComparison.Ordinal))
            {
                continue;
            }

            var candidate = LastSegment(field.FieldPath);
            if (found is not null && !string.Equals(found, candidate, StringComparison.Ordinal))
            {
                fieldName = string.Empty;
                return false;
            }

            found = candidate;
        }

        fieldName = found ?? string.Empty;
        return found is not null;
    }

    private static string LastSegment(string path)
    {
        var dot = path.LastIndexOf('.');
        return dot < 0 ? path : path[(dot + 1)..];
    }

    private static Type? MemberType(MemberInfo member) => member switch
    {
        PropertyInfo property => property.PropertyType,
        FieldInfo field => field.FieldType,
        _ => null,
    };

    /// <summary>A collection's item type (its members continue the path), a nullable's underlying type, else the type.</summary>
    private static Type ItemType(Type type)
    {
        if (type.IsArray)
        {
            return type.GetElementType()!;
        }

        if (Nullable.GetUnderlyingType(type) is { } underlying)
        {
            return underlying;
        }

        if (type.IsGenericType && type != typeof(string))
        {
            var arguments = type.GetGenericArguments();
            return arguments[^1];
        }

        return type;
    }
}
