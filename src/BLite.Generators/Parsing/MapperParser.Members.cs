using System;
using System.Collections.Generic;
using BLite.Bson.Mapping;
using BLite.Generators.Model;
using Microsoft.CodeAnalysis;

namespace BLite.Generators.Parsing;

internal sealed partial class MapperParser
{
    private ObjectTypeSpec BuildObjectType(INamedTypeSymbol type, string methodSuffix, int index, Location? useSite)
    {
        var members = CollectMembers(type, index);
        var derivedTypes = CollectDerivedTypes(type);
        var canConstruct = !type.IsAbstract;
        if (type.IsAbstract && derivedTypes.Count == 0 && !KnownTypes.HasAttribute(type, _known.DerivedTypeAttribute))
        {
            Report(DiagnosticDescriptors.TypeNotConstructible, LocationOf(type) ?? useSite, TypeNames.Display(type), "it is abstract and declares no [BLiteDerivedType]");
        }

        var specs = new List<MemberSpec>(members.Count);
        var values = new ValueSpec?[members.Count];
        for (var i = 0; i < members.Count; i++)
        {
            var memberType = members[i] is IPropertySymbol p ? p.Type : ((IFieldSymbol)members[i]).Type;
            values[i] = index == 0 && SymbolEqualityComparer.Default.Equals(members[i], _idMembers[0]) && !IsSupportedIdType(memberType)
                ? ConvertedIdValue(memberType)
                : ResolveValue(memberType, members[i]);
        }

        var constructor = canConstruct ? ChooseConstructor(type, members) : null;
        for (var i = 0; i < members.Count; i++)
        {
            if (values[i] is not { } value)
            {
                continue;
            }

            var member = members[i];
            var isId = SymbolEqualityComparer.Default.Equals(member, _idMembers[index]);
            var (read, getterTarget) = ResolveRead(member);
            var parameterIndex = constructor is null ? -1 : FindParameter(constructor, member);
            var (write, setterTarget) = parameterIndex >= 0 ? (MemberWriteKind.Constructor, "") : canConstruct && constructor is not null ? ResolveWrite(member) : (MemberWriteKind.Assign, "");
            if ((read != MemberReadKind.Direct || write is MemberWriteKind.SetterAccessor or MemberWriteKind.FieldAccessor) && member.ContainingType.IsGenericType)
            {
                Report(DiagnosticDescriptors.UnsupportedMemberType, LocationOf(member), Qualified(member), TypeNames.Display(MemberType(member)), "a non-public member of a generic type cannot be reached without reflection");
                continue;
            }

            specs.Add(new MemberSpec(
                TypeNames.Identifier(member.Name),
                isId ? MappingConventions.IdFieldName : StoredNameOf(member),
                value,
                read,
                write,
                parameterIndex,
                TypeNames.Plain(member.ContainingType),
                member.ContainingType.IsValueType,
                setterTarget,
                getterTarget)
            {
                IsId = isId,
                HasFreshEmptyInitializer = HasFreshEmptyInitializer(type, member, value, read, write),
            });
        }

        CheckDuplicateStoredNames(type, specs, members);
        if (specs.Count > 0 && specs.FindIndex(s => s.IsId) is > 0 and var idPosition)
        {
            var id = specs[idPosition];
            specs.RemoveAt(idPosition);
            specs.Insert(0, id);
        }

        return new ObjectTypeSpec(
            TypeNames.Plain(type),
            type.Name,
            methodSuffix,
            type.IsValueType,
            canConstruct,
            specs.ToEquatableArray(),
            constructor?.Parameters.Length ?? 0,
            derivedTypes.ToEquatableArray());
    }

    /// <summary>Mapped members, base type members first, each level in declaration order.</summary>
    private List<ISymbol> CollectMembers(INamedTypeSymbol type, int index)
    {
        var levels = new List<List<ISymbol>>();
        var seenNames = new HashSet<string>(StringComparer.Ordinal);
        ISymbol? namedId = null;
        ISymbol? markedId = null;
        for (var current = type; current is { SpecialType: not (SpecialType.System_Object or SpecialType.System_ValueType) }; current = current.BaseType)
        {
            var level = new List<ISymbol>();
            foreach (var member in current.GetMembers())
            {
                if (!IsDataMember(member) || !seenNames.Add(member.Name) || KnownTypes.HasAttribute(member, _known.BsonIgnoreAttribute))
                {
                    continue;
                }

                var isMarkedId = KnownTypes.HasAttribute(member, _known.BsonIdAttribute);
                var optedIn = isMarkedId || KnownTypes.HasAttribute(member, _known.BsonFieldAttribute);
                if (member.DeclaredAccessibility != Accessibility.Public && !optedIn)
                {
                    continue;
                }

                if (member is IPropertySymbol { GetMethod: null })
                {
                    if (optedIn)
                    {
                        Report(DiagnosticDescriptors.UnsupportedMemberType, LocationOf(member), Qualified(member), TypeNames.Display(MemberType(member)), "a property without a getter cannot be stored");
                    }

                    continue;
                }

                if (isMarkedId)
                {
                    if (markedId is not null)
                    {
                        Report(DiagnosticDescriptors.MultipleIds, LocationOf(member), TypeNames.Display(type), markedId.Name, member.Name);
                    }

                    markedId = member;
                }
                else if (member.Name == MappingConventions.IdMemberName)
                {
                    namedId = member;
                }

                level.Add(member);
            }

            levels.Insert(0, level);
        }

        _idMembers[index] = markedId ?? namedId;
        var all = new List<ISymbol>();
        foreach (var level in levels)
        {
            all.AddRange(level);
        }

        return all;
    }

    private static bool IsDataMember(ISymbol member)
        => !member.IsStatic && member switch
        {
            IPropertySymbol property => !property.IsIndexer && property.ExplicitInterfaceImplementations.Length == 0,
            IFieldSymbol field => !field.IsConst && !field.IsImplicitlyDeclared && field.AssociatedSymbol is null,
            _ => false,
        };

    private string StoredNameOf(ISymbol member)
    {
        var attribute = KnownTypes.FindAttribute(member, _known.BsonFieldAttribute);
        return attribute is { ConstructorArguments.Length: 1 } && attribute.ConstructorArguments[0].Value is string { Length: > 0 } name
            ? name
            : member.Name;
    }

    private void CheckDuplicateStoredNames(INamedTypeSymbol type, List<MemberSpec> specs, List<ISymbol> members)
    {
        var byName = new Dictionary<string, MemberSpec>(StringComparer.Ordinal);
        foreach (var spec in specs)
        {
            if (byName.TryGetValue(spec.StoredName, out var first))
            {
                var symbol = members.Find(m => TypeNames.Identifier(m.Name) == spec.Name);
                Report(DiagnosticDescriptors.DuplicateFieldName, symbol is null ? LocationOf(type) : LocationOf(symbol), first.Name, spec.Name, TypeNames.Display(type), spec.StoredName);
                continue;
            }

            byName.Add(spec.StoredName, spec);
        }
    }

    private (MemberReadKind Kind, string Target) ResolveRead(ISymbol member)
    {
        if (member is IPropertySymbol property)
        {
            return _known.IsAccessible(property.GetMethod!) ? (MemberReadKind.Direct, "") : (MemberReadKind.GetterAccessor, property.GetMethod!.Name);
        }

        return _known.IsAccessible(member) ? (MemberReadKind.Direct, "") : (MemberReadKind.FieldAccessor, member.Name);
    }

    /// <summary>How a member not bound to a constructor parameter receives its value; reports BLITE006 when it cannot.</summary>
    private (MemberWriteKind Kind, string Target) ResolveWrite(ISymbol member)
    {
        if (TryResolveWrite(member, out var kind, out var target))
        {
            return (kind, target);
        }

        Report(DiagnosticDescriptors.MemberNotSettable, LocationOf(member), Qualified(member));
        return (MemberWriteKind.Assign, "");
    }

    private bool TryResolveWrite(ISymbol member, out MemberWriteKind kind, out string target)
    {
        target = "";
        if (member is IFieldSymbol field)
        {
            var direct = !field.IsReadOnly && _known.IsAccessible(field);
            kind = !direct ? MemberWriteKind.FieldAccessor : field.IsRequired ? MemberWriteKind.Initializer : MemberWriteKind.Assign;
            target = field.Name;
            return true;
        }

        var property = (IPropertySymbol)member;
        if (property.SetMethod is { } setter)
        {
            if (!_known.IsAccessible(setter))
            {
                kind = MemberWriteKind.SetterAccessor;
                target = setter.Name;
            }
            else
            {
                kind = setter.IsInitOnly || property.IsRequired ? MemberWriteKind.Initializer : MemberWriteKind.Assign;
            }

            return true;
        }

        if (FindBackingField(property) is { } backingField)
        {
            kind = MemberWriteKind.FieldAccessor;
            target = backingField.Name;
            return true;
        }

        kind = default;
        return false;
    }

    /// <summary>
    /// A public parameterless constructor when every member can be set without one; otherwise the
    /// accessible constructor with the most parameters that all bind to mapped members (same name
    /// ignoring case, same type), such as a positional record's primary constructor.
    /// </summary>
    private IMethodSymbol? ChooseConstructor(INamedTypeSymbol type, List<ISymbol> members)
    {
        var candidates = new List<IMethodSymbol>();
        foreach (var constructor in type.InstanceConstructors)
        {
            if (_known.IsAccessible(constructor) && !IsCopyConstructor(type, constructor) && BindsAllParameters(constructor, members))
            {
                candidates.Add(constructor);
            }
        }

        candidates.Sort((a, b) => a.Parameters.Length == 0 ? (b.Parameters.Length == 0 ? 0 : -1) : b.Parameters.Length == 0 ? 1 : b.Parameters.Length.CompareTo(a.Parameters.Length));
        foreach (var candidate in candidates)
        {
            if (members.TrueForAll(m => FindParameter(candidate, m) >= 0 || TryResolveWrite(m, out _, out _)))
            {
                return candidate;
            }
        }

        if (candidates.Count == 0)
        {
            Report(DiagnosticDescriptors.TypeNotConstructible, LocationOf(type), TypeNames.Display(type), "it has no accessible constructor whose parameters all match mapped members (same name ignoring case, same type)");
            return null;
        }

        // No candidate can set every member: bind the widest one so BLITE006 names the members left over.
        return candidates[0].Parameters.Length == 0 && candidates.Count > 1 ? candidates[1] : candidates[0];
    }

    private static bool IsCopyConstructor(INamedTypeSymbol type, IMethodSymbol constructor)
        => type.IsRecord && constructor.Parameters.Length == 1 && SymbolEqualityComparer.Default.Equals(constructor.Parameters[0].Type, type);

    private static bool BindsAllParameters(IMethodSymbol constructor, List<ISymbol> members)
    {
        foreach (var parameter in constructor.Parameters)
        {
            if (members.FindIndex(m => Binds(parameter, m)) < 0)
            {
                return false;
            }
        }

        return true;
    }

    private static int FindParameter(IMethodSymbol constructor, ISymbol member)
    {
        for (var i = 0; i < constructor.Parameters.Length; i++)
        {
            if (Binds(constructor.Parameters[i], member))
            {
                return i;
            }
        }

        return -1;
    }

    private static bool Binds(IParameterSymbol parameter, ISymbol member)
        => string.Equals(parameter.Name, member.Name, StringComparison.OrdinalIgnoreCase)
            && SymbolEqualityComparer.Default.Equals(parameter.Type, MemberType(member));

    private List<DerivedTypeSpec> CollectDerivedTypes(INamedTypeSymbol type)
    {
        var result = new List<(DerivedTypeSpec Spec, int Depth)>();
        var discriminators = new HashSet<string>(StringComparer.Ordinal);
        foreach (var attribute in type.GetAttributes())
        {
            if (!SymbolEqualityComparer.Default.Equals(attribute.AttributeClass, _known.DerivedTypeAttribute) || attribute.ConstructorArguments.Length != 2)
            {
                continue;
            }

            var location = attribute.ApplicationSyntaxReference?.GetSyntax(_cancellationToken).GetLocation() ?? LocationOf(type);
            if (attribute.ConstructorArguments[0].Value is not INamedTypeSymbol derived || attribute.ConstructorArguments[1].Value is not string discriminator)
            {
                continue;
            }

            if (discriminator.Length == 0 || !discriminators.Add(discriminator))
            {
                Report(DiagnosticDescriptors.InvalidDerivedType, location, TypeNames.Display(type), $"discriminator '{discriminator}' is empty or used twice");
                continue;
            }

            var depth = InheritanceDistance(derived, type);
            if (depth <= 0 || derived.IsAbstract || derived.IsGenericType)
            {
                Report(DiagnosticDescriptors.InvalidDerivedType, location, TypeNames.Display(type), $"'{TypeNames.Display(derived)}' must be a non-abstract, non-generic class deriving from it");
                continue;
            }

            if (!_known.IsAccessible(derived))
            {
                Report(DiagnosticDescriptors.InaccessibleType, location, TypeNames.Display(derived), "the generated mapper cannot see it");
                continue;
            }

            var derivedIndex = GetOrAddObjectType(derived, location);
            _derivedTypeIndices.Add(derivedIndex);
            result.Add((new DerivedTypeSpec(derivedIndex, TypeNames.Plain(derived), discriminator), depth));
        }

        // Most derived first: a switch on the runtime type must test a subclass before its base.
        result.Sort((a, b) => b.Depth.CompareTo(a.Depth));
        return result.ConvertAll(r => r.Spec);
    }

    private static int InheritanceDistance(INamedTypeSymbol derived, INamedTypeSymbol baseType)
    {
        var distance = 0;
        for (var current = derived; current is not null; current = current.BaseType, distance++)
        {
            if (SymbolEqualityComparer.Default.Equals(current, baseType))
            {
                return distance;
            }
        }

        return -1;
    }

    private static ITypeSymbol MemberType(ISymbol member) => member is IPropertySymbol p ? p.Type : ((IFieldSymbol)member).Type;

    private static string Qualified(ISymbol member) => member.ContainingType.Name + "." + member.Name;
}
