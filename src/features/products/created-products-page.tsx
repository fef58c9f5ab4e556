import { Anchor, Button, Stack, Table, Text, Title } from '@mantine/core';
import { DateTime } from '@/lib/date-time';
import { pathTo } from '@/lib/paths';
import { Link } from '@/lib/router';
import { listCreated } from './created-products';

export function CreatedProductsPage() {
  const created = listCreated();
  return (
    <Stack gap="md">
      <Title order={1}>Created products</Title>
      <Text c="dimmed" size="sm">
        Products created from this browser (the last 50), kept here only. Open one to see what was sent and what the platform answered.
      </Text>
      {created.length === 0 ? (
        <Stack align="flex-start">
          <Text>No products have been created from this browser yet.</Text>
          <Button component={Link} to={pathTo('newProduct')}>
            New product
          </Button>
        </Stack>
      ) : (
        // On a phone the table scrolls sideways inside its frame; the page itself does not.
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover aria-label="Created products">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Slug</Table.Th>
                <Table.Th scope="col">Platform id</Table.Th>
                <Table.Th scope="col">Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {created.map((entry) => (
                <Table.Tr key={entry.localId}>
                  <Table.Td>
                    <Anchor component={Link} to={pathTo('createdProduct', { id: entry.localId })}>
                      {entry.body.name || 'Unnamed product'}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{entry.body.slug ?? ''}</Table.Td>
                  <Table.Td>{typeof entry.response.id === 'string' ? entry.response.id : ''}</Table.Td>
                  <Table.Td>
                    <DateTime date={new Date(entry.createdAt)} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
