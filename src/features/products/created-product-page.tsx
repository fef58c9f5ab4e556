/**
 * A product created from this browser: straight after Create (the success page) or reopened later
 * from the list, read-only, with what the platform answered and what was sent.
 */
import { Alert, Anchor, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { DateTime } from '@/lib/date-time';
import { JsonBlock } from '@/lib/json-block';
import { pathTo } from '@/lib/paths';
import { Link, useNavigate, usePathParams, usePathState } from '@/lib/router';
import { getCreated } from './created-products';

/** One JSON value under its heading; the block is the named, scrollable region. */
function Json({ label, value }: { label: string; value: unknown }) {
  return (
    <Card withBorder>
      <Title order={2} size="h5" mb="xs">
        {label}
      </Title>
      <JsonBlock json={JSON.stringify(value, null, 2)} label={label} maxHeight={320} />
    </Card>
  );
}

export function CreatedProductPage() {
  const localId = usePathParams('createdProduct')?.id ?? '';
  const justCreated = usePathState('createdProduct')?.justCreated === true;
  const navigate = useNavigate();
  const entry = getCreated(localId);

  if (!entry) {
    return (
      <Stack maw={640}>
        <Title order={1}>Product not found</Title>
        <Text>This browser has no record of that product. The list keeps the last 50 products created here.</Text>
        <Button component={Link} to={pathTo('products')} w="fit-content">
          Created products
        </Button>
      </Stack>
    );
  }
  const { body, response } = entry;
  const platformId = typeof response.id === 'string' || typeof response.id === 'number' ? String(response.id) : undefined;
  const attributes = body.attributes ?? [];
  return (
    <Stack gap="md">
      <Title order={1}>{body.name || 'Unnamed product'}</Title>
      {justCreated && (
        <Alert color="teal" title="Product created">
          {platformId
            ? `The platform stored it with id ${platformId}.`
            : 'The platform accepted it; it answered without a record (an empty object), which is normal for the live platform.'}
        </Alert>
      )}
      <Group>
        <Button component={Link} to={pathTo('newProduct')}>
          Create another
        </Button>
        <Button variant="default" onClick={() => navigate(pathTo('newProduct'), { state: { template: body } })}>
          Start a new product from this one
        </Button>
        <Button variant="subtle" component={Link} to={pathTo('products')}>
          All created products
        </Button>
      </Group>
      <Card withBorder component="section" aria-label="Summary">
        <Table fz="sm" withRowBorders={false}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th scope="row" w={180}>
                Created
              </Table.Th>
              <Table.Td>
                <DateTime date={new Date(entry.createdAt)} />
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">Platform id</Table.Th>
              <Table.Td>
                {platformId ? (
                  <Anchor
                    component={Link}
                    to={pathTo('catalogueProduct', { id: platformId })}
                    aria-label={`${platformId}: open in the Catalogue`}
                  >
                    {platformId}
                  </Anchor>
                ) : (
                  <em>not returned</em>
                )}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">Slug</Table.Th>
              <Table.Td>{body.slug ?? <em>none</em>}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">Enabled</Table.Th>
              <Table.Td>{body.enabled === 'false' ? 'No' : 'Yes'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">Attributes</Table.Th>
              <Table.Td>
                {attributes.length === 0
                  ? 'none'
                  : attributes.map((a) => `${a.name ?? ''} (${(a.items ?? []).map((o) => o.name ?? '').join(', ')})`).join('; ')}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Card>
      <Json label="What the platform answered" value={response} />
      <Json label="What was sent" value={body} />
    </Stack>
  );
}
